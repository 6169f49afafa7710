#include "widgets/load_indicator.h"

#include <cmath>

#include "session/connection_hub.h"

namespace lockscope::ui {
namespace {

// "5%", "2.1%", "<0.1%": whole numbers without decimals, tiny shares not shown as 0.
QString percent(double share) {
    const double p = share * 100.0;
    if (p > 0 && p < 0.1) return QStringLiteral("<0.1%");
    const bool whole = std::abs(p - std::round(p)) < 0.05 || p >= 10;
    return QString::number(p, 'f', whole ? 0 : 1) + QLatin1Char('%');
}

}  // namespace

LoadIndicator::LoadIndicator(ConnectionHub& hub, QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("loadIndicator"));
    connect(&hub, &ConnectionHub::loadMeasured, this, &LoadIndicator::record);
    connect(&hub, &ConnectionHub::instanceClosed, this, &LoadIndicator::forget);
    redrawSoon_.setSingleShot(true);
    redrawSoon_.setInterval(kRedrawEveryMs);
    connect(&redrawSoon_, &QTimer::timeout, this, &LoadIndicator::redraw);
    redraw();
}

void LoadIndicator::record(const QString& instance, double commandsPerSecond, double serverShare,
                           double budget) {
    const bool first = loads_.isEmpty();
    loads_[instance] = {commandsPerSecond, serverShare, budget};
    if (first)
        redraw();  // the first figure at once: "not measured yet" is gone
    else if (!redrawSoon_.isActive())
        redrawSoon_.start();
}

void LoadIndicator::forget(const QString& instance) {
    loads_.remove(instance);
    if (!redrawSoon_.isActive()) redrawSoon_.start();
}

void LoadIndicator::setWarning(bool on) {
    if (on == warning_) return;  // a style sheet set again re-polishes the label
    warning_ = on;
    setStyleSheet(on ? QStringLiteral("QLabel { color: #b26b00; }") : QString());
}

void LoadIndicator::redraw() {
    if (loads_.isEmpty()) {
        // True with no connection and in a connection's first seconds alike: "not connected"
        // showed beside a table a live connection had just filled.
        setWarning(false);
        setText(tr("LockScope load: not measured yet"));
        setToolTip(tr("Measured from a connection's round trips once it has run a few seconds"));
        return;
    }
    double commands = 0;
    const Load* busiest = nullptr;
    QStringList lines;
    for (auto it = loads_.cbegin(); it != loads_.cend(); ++it) {
        const Load& l = it.value();
        commands += l.commandsPerSecond;
        if (!busiest || l.serverShare / l.budget > busiest->serverShare / busiest->budget)
            busiest = &l;
        lines << tr("%1: %2 commands/s, server %3 of a core (budget %4)")
                     .arg(it.key())
                     .arg(qRound64(l.commandsPerSecond))
                     .arg(percent(l.serverShare), percent(l.budget));
    }
    const QString server = loads_.size() == 1 ? tr("server") : tr("busiest server");
    setText(tr("LockScope load: %1 cmd/s · %2 %3 of a core (budget %4)")
                .arg(qRound64(commands))
                .arg(server, percent(busiest->serverShare), percent(busiest->budget)));
    setToolTip(tr("Measured from the round trips of the last 10 s (they bound the server "
                  "time from above):\n") +
               lines.join(QLatin1Char('\n')));
    // Over budget (a scan at full speed, a large focus): say so in the warning colour.
    setWarning(busiest->serverShare > busiest->budget * 1.2);
}

}  // namespace lockscope::ui

#include "widgets/pttl_plot.h"

#include <qcustomplot.h>
#include <QDateTime>
#include <QFontMetrics>
#include <QVBoxLayout>
#include <array>

namespace lockscope::ui {

PttlPlot::PttlPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    setMinimumHeight(180);

    auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
    ticker->setDateTimeFormat(QStringLiteral("hh:mm:ss"));
    ticker->setTickCount(4);
    plot_->xAxis->setTicker(ticker);
    plot_->yAxis->setLabel(tr("PTTL (s)"));
    plot_->addGraph();
    QPen pen(QColor(0x3b, 0x6e, 0xa8));
    pen.setWidthF(2);
    plot_->graph(0)->setPen(pen);
    plot_->graph(0)->setBrush(QColor(0x3b, 0x6e, 0xa8, 40));
    plot_->setNoAntialiasingOnDrag(true);
    plot_->setBackground(palette().color(QPalette::Base));
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setBasePen(QPen(palette().color(QPalette::Text)));
        axis->setTickPen(QPen(palette().color(QPalette::Text)));
        axis->setSubTickPen(QPen(palette().color(QPalette::Mid)));
        axis->setTickLabelColor(palette().color(QPalette::Text));
        axis->setLabelColor(palette().color(QPalette::Text));
    }

    // PlotJuggler's trick: many updates, one replot per 40 ms at most.
    coalesce_.setSingleShot(true);
    coalesce_.setInterval(40);
    connect(&coalesce_, &QTimer::timeout, this, &PttlPlot::redraw);
}

void PttlPlot::show(const LockTrack* track, const QString& title) {
    track_ = track;
    title_ = title;
    if (!coalesce_.isActive()) coalesce_.start();
}

namespace {

QString shortToken(const QString& token) {
    // A one-character token ("1") is shown whole, not as "1…".
    return token.size() <= 8 ? token : token.left(6) + QStringLiteral("…");
}

QColor eventColor(HolderEvent event) {
    switch (event) {
        case HolderEvent::Expired:
            return {0xe5, 0x39, 0x35};
        case HolderEvent::Released:
            return {0x2e, 0x7d, 0x32};
        case HolderEvent::Takeover:
            return {0x8e, 0x24, 0xaa};
        case HolderEvent::Acquired:
            break;
    }
    return {0x3b, 0x6e, 0xa8};
}

QString eventLabel(const HolderChange& h) {
    if (h.vanished) return QStringLiteral(" ") + toString(h.event);
    QString text = QStringLiteral(" %1 %2").arg(toString(h.event), shortToken(h.token));
    if (h.fence) text += PttlPlot::tr(" fence %1").arg(*h.fence);
    return text;
}

}  // namespace

void PttlPlot::redraw() {
    plot_->clearItems();
    QVector<double> x, y;
    double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    double maxY = 1;
    const bool empty = track_ == nullptr;
    plot_->xAxis->setVisible(!empty);
    plot_->yAxis->setVisible(!empty);
    plot_->graph(0)->setVisible(!empty);
    if (empty) {  // nothing selected: no empty chart, a hint
        auto* hint = new QCPItemText(plot_);
        hint->position->setType(QCPItemPosition::ptAxisRectRatio);
        hint->position->setCoords(0.5, 0.5);
        hint->setColor(palette().color(QPalette::PlaceholderText));
        hint->setText(tr("Select a lock to see its TTL over time"));
    }
    if (track_) {
        // Between two observations the TTL runs down at one second per second: draw that
        // slope up to the next observation (a renewal then jumps up: the sawtooth), and
        // from the last one up to now.
        const auto& samples = track_->samples;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const PttlSample& s = samples[i];
            double until = i + 1 < samples.size() ? samples[i + 1].time : now;
            if (s.pttlMs < 0) {
                x.append(s.time), y.append(qQNaN());
                continue;
            }
            double start = s.pttlMs / 1000.0;
            x.append(s.time), y.append(start);
            x.append(until), y.append(std::max(0.0, start - (until - s.time)));
            maxY = std::max(maxY, start);
        }
    }
    plot_->graph(0)->setData(x, y, true);
    double from = x.isEmpty() ? now - 60 : std::min(x.first(), now - 10);
    plot_->xAxis->setRange(from, now + 1);
    const int labelRows = track_ ? placeEventLabels(*track_) : 0;
    // The labels' rows at the top stay clear of the curve: the range grows by their band
    // (on a long-renewed lock the labels were drawn over the sawtooth's teeth).
    const double band = labelBand(labelRows);
    plot_->yAxis->setRange(0, maxY * 1.05 / std::max(0.3, 1.0 - band));
    placeFailoverMarks(track_ ? from : now + 2);
    plot_->xAxis->setLabel(title_);
    plot_->replot(QCustomPlot::rpQueuedReplot);
    ++replots_;
}

void PttlPlot::setFailovers(std::vector<double> times) {
    if (times == failovers_) return;
    failovers_ = std::move(times);
    if (!coalesce_.isActive()) coalesce_.start();
}

void PttlPlot::placeFailoverMarks(double from) {
    // A thick orange line across the chart and its label at the bottom, below the holder
    // events' labels at the top: a failover is not a holder's doing.
    failoverMarks_ = 0;
    const QColor color(0xef, 0x6c, 0x00);
    const QFontMetrics metrics(font());
    for (double at : failovers_) {
        if (at < from) continue;
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(at, 0);
        line->point2->setCoords(at, 1);
        QPen pen(color);
        pen.setWidthF(2);
        pen.setStyle(Qt::DashDotLine);
        line->setPen(pen);
        auto* label = new QCPItemText(plot_);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(at, 0.97);
        // Right of its line, or left of it near the chart's right edge: never cut off.
        const QString text = tr(" failover ");
        const bool leftOfLine = plot_->xAxis->coordToPixel(at) + metrics.horizontalAdvance(text) >
                                plot_->axisRect()->right();
        label->setPositionAlignment((leftOfLine ? Qt::AlignRight : Qt::AlignLeft) |
                                    Qt::AlignBottom);
        label->setColor(color);
        label->setText(text);
        ++failoverMarks_;
    }
}

double PttlPlot::labelBand(int rows) const {
    if (rows == 0) return 0;
    const QFontMetrics metrics(font());
    return 0.01 +
           double(rows * (metrics.height() + 2) + 4) / std::max(1, plot_->axisRect()->height());
}

int PttlPlot::placeEventLabels(const LockTrack& track) {
    // Labels go in rows under the top of the chart: each takes the first row where the
    // label before it has ended, so two never overlap; past kRows, the line stays and the
    // label is left out (the token history tab lists every event).
    constexpr int kRows = 4;
    QFontMetrics metrics(font());
    const double rowHeight =
        double(metrics.height() + 2) / std::max(1, plot_->axisRect()->height());
    std::array<double, kRows> rowEnd;
    rowEnd.fill(-1e9);
    labelsShown_ = 0;
    int rowsUsed = 0;
    for (const HolderChange& h : track.holders) {
        const QColor color = eventColor(h.event);
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(h.time, 0);
        line->point2->setCoords(h.time, 1);
        QPen pen(color);
        pen.setStyle(h.vanished ? Qt::SolidLine : Qt::DashLine);
        line->setPen(pen);
        const QString text = eventLabel(h);
        const double at = plot_->xAxis->coordToPixel(h.time);
        const double width = metrics.horizontalAdvance(text) + 6;
        // Near the right edge the label goes to the left of its line, not off the chart.
        const bool leftOfLine = at + width > plot_->axisRect()->right();
        const double left = leftOfLine ? at - width : at;
        const double right = left + width;
        int row = 0;
        while (row < kRows && rowEnd[std::size_t(row)] > left) ++row;
        if (row == kRows) continue;
        rowEnd[std::size_t(row)] = right;
        rowsUsed = std::max(rowsUsed, row + 1);
        auto* label = new QCPItemText(plot_);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(h.time, 0.01 + row * rowHeight);
        label->setPositionAlignment((leftOfLine ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        label->setColor(color);
        label->setText(leftOfLine ? text.trimmed() + QLatin1Char(' ') : text);
        ++labelsShown_;
    }
    return rowsUsed;
}

}  // namespace lockscope::ui

#include "widgets/pttl_plot.h"

#include <qcustomplot.h>
#include <QDateTime>
#include <QVBoxLayout>

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

void PttlPlot::redraw() {
    plot_->clearItems();
    QVector<double> x, y;
    double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    double maxY = 1;
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
        for (const HolderChange& h : track_->holders) {
            auto* line = new QCPItemStraightLine(plot_);
            line->point1->setCoords(h.time, 0);
            line->point2->setCoords(h.time, 1);
            QPen pen(h.vanished ? QColor(0xe5, 0x39, 0x35) : QColor(0x8e, 0x24, 0xaa));
            pen.setStyle(Qt::DashLine);
            line->setPen(pen);
            auto* label = new QCPItemText(plot_);
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->position->setCoords(h.time, maxY * 1.08);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
            label->setColor(pen.color());
            label->setText(
                h.vanished
                    ? tr(" expired / deleted")
                    : (h.fence ? tr(" holder %1… fence %2").arg(h.token.left(6)).arg(*h.fence)
                               : tr(" holder %1…").arg(h.token.left(6))));
        }
    }
    plot_->graph(0)->setData(x, y, true);
    double from = x.isEmpty() ? now - 60 : std::min(x.first(), now - 10);
    plot_->xAxis->setRange(from, now + 1);
    plot_->yAxis->setRange(0, maxY * 1.15);
    plot_->xAxis->setLabel(title_);
    plot_->replot(QCustomPlot::rpQueuedReplot);
    ++replots_;
}

}  // namespace lockscope::ui

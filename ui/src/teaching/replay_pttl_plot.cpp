#include "replay_pttl_plot.h"

#include <qcustomplot.h>
#include <QEvent>
#include <QVBoxLayout>

#include "lane_colors.h"
#include "lane_fonts.h"
#include "pttl_legend.h"

namespace lockscope::ui {

ReplayPttlPlot::ReplayPttlPlot(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), legend_(new PttlLegend(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(legend_);
    layout->addWidget(plot_, 1);
    legend_->setVisible(false);
    setMinimumHeight(kMinimumPlotHeight);
    plot_->yAxis->setLabel(tr("PTTL (s)"));
    plot_->xAxis->setLabel(tr("virtual time (s)"));
    plot_->axisRect()->setAutoMargins(QCP::msTop | QCP::msBottom);
    plot_->yAxis->ticker()->setTickCount(4);
    cursor_ = new QCPItemStraightLine(plot_);
    cursorLabel_ = new QCPItemText(plot_);
    cursorLabel_->position->setTypeX(QCPItemPosition::ptPlotCoords);
    cursorLabel_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    cursorLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    cursorLabel_->setPadding(QMargins(4, 2, 4, 2));
    applyPalette();

    // PlotJuggler's trick: many updates, one replot per 40 ms at most.
    coalesce_.setSingleShot(true);
    coalesce_.setInterval(40);
    connect(&coalesce_, &QTimer::timeout, this, &ReplayPttlPlot::redraw);
}

void ReplayPttlPlot::applyPalette() {
    const QPalette& pal = palette();
    QColor text = pal.color(QPalette::Text);
    plot_->setBackground(pal.color(QPalette::Base));
    plot_->axisRect()->setBackground(pal.color(QPalette::Base));
    QFont tickFont = LaneFonts::axis();
    QFont labelFont = LaneFonts::sized(14, true);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(pal.color(QPalette::Mid)));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->setTickLabelFont(tickFont);
        axis->setLabelFont(labelFont);
        QColor grid = text;
        grid.setAlpha(45);
        axis->grid()->setPen(QPen(grid, 1));
    }
    styleGraphs(std::max(1, plot_->graphCount() / 2));
    plot_->legend->setBrush(pal.color(QPalette::Base));
    plot_->legend->setTextColor(text);
    plot_->legend->setBorderPen(QPen(pal.color(QPalette::Mid)));
    plot_->legend->setFont(LaneFonts::axis());
    QColor cursor = LaneColors::cursor(pal);
    cursor_->setPen(QPen(cursor, 2.5));
    cursorLabel_->setColor(LaneColors::textOn(cursor));
    cursorLabel_->setBrush(cursor);
    cursorLabel_->setFont(LaneFonts::cursor());
}

void ReplayPttlPlot::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        refresh();
    }
}

void ReplayPttlPlot::setReplay(const sim::Replay* replay) {
    replay_ = replay;
    refresh();
}

void ReplayPttlPlot::setTimeAxis(sim::VirtualMs end, int leftMargin, int rightMargin) {
    end_ = std::max<sim::VirtualMs>(end, 1);
    plot_->axisRect()->setMargins(QMargins(leftMargin, 0, rightMargin, 0));
    refresh();
}

void ReplayPttlPlot::refresh() {
    if (!coalesce_.isActive()) coalesce_.start();
}

void ReplayPttlPlot::styleGraphs(int nodes) {
    // Two graphs per Redis node: the TTL counting down, and the key held with no TTL.
    while (plot_->graphCount() < nodes * 2) plot_->addGraph();
    while (plot_->graphCount() > nodes * 2) plot_->removeGraph(plot_->graphCount() - 1);
    const QPalette& pal = palette();
    // Several nodes' lines cross: each has its own colour and its own dash, thick enough to
    // tell apart on a 720p projector, and no fill to hide the others.
    static constexpr Qt::PenStyle kDashes[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine,
                                               Qt::DashDotLine, Qt::DashDotDotLine};
    for (int i = 0; i < nodes; ++i) {
        QColor line = LaneColors::actor(QString(QChar(char16_t(u'D' + i % 5))), pal);
        QPen pen(line);
        pen.setWidthF(nodes == 1 ? 3 : 3.5);
        pen.setStyle(nodes == 1 ? Qt::SolidLine : kDashes[i % 5]);
        pen.setCapStyle(Qt::FlatCap);
        plot_->graph(2 * i)->setPen(pen);
        QColor fill = line;
        fill.setAlpha(50);
        plot_->graph(2 * i)->setBrush(nodes == 1 ? QBrush(fill) : QBrush(Qt::NoBrush));
        QPen noTtl(LaneColors::noTtl(pal));
        noTtl.setWidthF(4);
        noTtl.setStyle(Qt::DashLine);
        plot_->graph(2 * i + 1)->setPen(noTtl);
        plot_->graph(2 * i + 1)->setName(tr("no TTL (PTTL -1)"));
    }
    plot_->legend->setVisible(false);  // the strip above the plot is the legend
}

void ReplayPttlPlot::placeLegend(int nodes, bool noTtlSeen) {
    // Every node's line and, when one is drawn, the no-TTL line; one node alone needs none.
    std::vector<PttlLegend::Entry> entries;
    if (nodes > 1)
        for (int i = 0; i < nodes; ++i)
            entries.push_back({plot_->graph(2 * i)->name(), plot_->graph(2 * i)->pen()});
    if (noTtlSeen) entries.push_back({plot_->graph(1)->name(), plot_->graph(1)->pen()});
    // The strip adds its height: the curves keep the plot's own minimum.
    setMinimumHeight(kMinimumPlotHeight + (entries.empty() ? 0 : legend_->sizeHint().height()));
    legend_->setEntries(std::move(entries));
}

void ReplayPttlPlot::setCursorTime(std::optional<sim::VirtualMs> t) {
    if (cursorTime_ == t) return;
    cursorTime_ = t;
    const bool started = replay_ && replay_->currentBeat() >= 0;
    const sim::VirtualMs now = replay_ ? replay_->currentTime() : 0;
    placeCursor(t ? std::max(*t, now) : now, started);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ReplayPttlPlot::placeCursor(sim::VirtualMs now, bool started) {
    double cx = started ? now / 1000.0 : 0.0;
    cursor_->point1->setCoords(cx, 0);
    cursor_->point2->setCoords(cx, 1);
    cursorLabel_->position->setCoords(cx, 0.02);
    cursorLabel_->setText(started ? QStringLiteral(" %1 s ").arg(now / 1000.0, 0, 'f', 3)
                                  : tr(" start "));
    // Keep the label inside the plot near the right edge.
    bool right = cx > end_ / 1000.0 * 0.8;
    cursorLabel_->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
}

void ReplayPttlPlot::redraw() {
    coalesce_.stop();
    x_.clear();
    y_.clear();
    bool started = replay_ && replay_->currentBeat() >= 0;
    sim::VirtualMs now = replay_ ? replay_->currentTime() : 0;
    int nodes = 1;
    double maxY = 1;
    bool noTtlSeen = false;
    if (replay_) {
        for (const sim::PttlSample& s : replay_->recording().pttl) {
            nodes = std::max(nodes, s.node + 1);
            maxY = std::max(maxY, s.pttl / 1000.0);
            noTtlSeen = noTtlSeen || s.pttl == -1;
        }
    }
    styleGraphs(nodes);
    const double noTtlLevel = maxY * 1.05;
    for (int node = 0; node < nodes; ++node) {
        QVector<double> x, y, nx, ny;
        std::vector<sim::PttlSample> samples;
        if (replay_)
            for (const sim::PttlSample& s : replay_->recording().pttl)
                if (s.node == node) samples.push_back(s);
        for (std::size_t i = 0; started && i < samples.size(); ++i) {
            const sim::PttlSample& s = samples[i];
            if (s.time > now) break;
            // Between samples the TTL runs down one millisecond per millisecond.
            sim::VirtualMs until =
                i + 1 < samples.size() ? std::min(samples[i + 1].time, now) : now;
            double t0 = s.time / 1000.0, t1 = until / 1000.0;
            if (s.pttl >= 0) {
                double v = s.pttl / 1000.0;
                x << t0 << t1;
                y << v << std::max(0.0, v - (t1 - t0));
                nx << t0;
                ny << qQNaN();
            } else {
                // No key (-2): a gap. No TTL (-1): the amber line at the top.
                x << t0;
                y << qQNaN();
                nx << t0;
                ny << qQNaN();
                if (s.pttl == -1) {
                    nx << t0 << t1;
                    ny << noTtlLevel << noTtlLevel;
                }
            }
        }
        plot_->graph(2 * node)->setData(x, y, true);
        plot_->graph(2 * node + 1)->setData(nx, ny, true);
        QString name = replay_ && node < static_cast<int>(replay_->state().nodes.size())
                           ? QString::fromStdString(replay_->state().nodes[node].name)
                           : tr("node %1").arg(node + 1);
        plot_->graph(2 * node)->setName(name);
        x_ += x;
        y_ += y;
    }
    placeLegend(nodes, noTtlSeen);
    plot_->xAxis->setRange(0, end_ / 1000.0);
    plot_->yAxis->setRange(0, maxY * 1.2);
    placeCursor(cursorTime_ ? std::max(*cursorTime_, now) : now, started);
    plot_->replot(QCustomPlot::rpQueuedReplot);
    ++replots_;
}

}  // namespace lockscope::ui

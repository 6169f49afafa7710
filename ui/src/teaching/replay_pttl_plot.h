#pragma once
// Under the lanes: the lock key's PTTL over virtual time, from the recording's samples,
// drawn up to the current beat with the same time range and margins as the lanes and the
// same "now" cursor. Between samples the TTL runs down one millisecond per millisecond; a
// key without a TTL is an amber line at the top. Replots are coalesced (40 ms).

#include <QTimer>
#include <QVector>
#include <QWidget>
#include <optional>

#include "lockscope/sim/replay.h"

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace lockscope::ui {

class PttlLegend;

class ReplayPttlPlot : public QWidget {
    Q_OBJECT
  public:
    explicit ReplayPttlPlot(QWidget* parent = nullptr);

    void setReplay(const sim::Replay* replay);
    // The lanes' time range and horizontal margins, so both views share one time axis.
    void setTimeAxis(sim::VirtualMs end, int leftMargin, int rightMargin);
    // Cheap to call often: the replot is coalesced.
    void refresh();
    // Replots now (tests, exports).
    void redraw();
    // The gliding cursor while the story plays (as TimelineLanes::setCursorTime); moves the
    // cursor line only.
    void setCursorTime(std::optional<sim::VirtualMs> t);

    QCustomPlot* plot() const { return plot_; }
    PttlLegend* legend() const { return legend_; }
    int replotCount() const { return replots_; }
    // The curve drawn so far (seconds, seconds), for tests.
    QVector<double> xs() const { return x_; }
    QVector<double> ys() const { return y_; }

  protected:
    void changeEvent(QEvent* event) override;

  private:
    static constexpr int kMinimumPlotHeight = 80;
    void applyPalette();
    void styleGraphs(int nodes);
    void placeCursor(sim::VirtualMs now, bool started);
    void placeLegend(int nodes, bool noTtlSeen);

    QCustomPlot* plot_;
    PttlLegend* legend_;
    QCPItemStraightLine* cursor_;
    QCPItemText* cursorLabel_;
    QTimer coalesce_;
    const sim::Replay* replay_ = nullptr;
    sim::VirtualMs end_ = 1000;
    std::optional<sim::VirtualMs> cursorTime_;
    QVector<double> x_, y_;
    int replots_ = 0;
};

}  // namespace lockscope::ui

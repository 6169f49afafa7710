#pragma once
// The detail pane's chart: a lock's PTTL over wall-clock time. Renewals show as a
// sawtooth; acquisitions, takeovers (with the new fence), releases and expiries as vertical
// lines in their own colours, labelled in rows that never overlap.
// Replots are coalesced into at most one per 40 ms.

#include <QTimer>
#include <QWidget>
#include <vector>

#include "models/lock_history.h"

class QCustomPlot;

namespace lockscope::ui {

class PttlPlot : public QWidget {
    Q_OBJECT
  public:
    explicit PttlPlot(QWidget* parent = nullptr);

    // Shows this track (nullptr: nothing selected). Cheap to call often: the redraw is
    // coalesced.
    void show(const LockTrack* track, const QString& title);
    QCustomPlot* plot() const { return plot_; }
    int replotCount() const { return replots_; }
    int labelsShown() const { return labelsShown_; }
    // When the lock's server failed over (wall-clock seconds): marked on the chart, since a
    // failover is when asynchronous replication can lose a lock.
    void setFailovers(std::vector<double> times);
    int failoverMarks() const { return failoverMarks_; }  // drawn at the last redraw

  private:
    void redraw();
    // Returns the rows of labels used (0 to 4).
    int placeEventLabels(const LockTrack& track);
    // The share of the chart's height the label rows take at its top.
    double labelBand(int rows) const;
    void placeFailoverMarks(double from);

    QCustomPlot* plot_;
    QTimer coalesce_;
    const LockTrack* track_ = nullptr;
    QString title_;
    int replots_ = 0;
    int labelsShown_ = 0;
    std::vector<double> failovers_;
    int failoverMarks_ = 0;
};

}  // namespace lockscope::ui

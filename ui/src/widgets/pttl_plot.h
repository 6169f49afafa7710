#pragma once
// The detail pane's chart: a lock's PTTL over wall-clock time. Renewals show as a
// sawtooth, handoffs as labelled vertical lines with the new fence, expiry as a red line.
// Replots are coalesced into at most one per 40 ms.

#include <QTimer>
#include <QWidget>

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

  private:
    void redraw();

    QCustomPlot* plot_;
    QTimer coalesce_;
    const LockTrack* track_ = nullptr;
    QString title_;
    int replots_ = 0;
};

}  // namespace lockscope::ui

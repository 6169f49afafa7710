#pragma once
// A torture run's history (lockscope-cli torture --history FILE.json) in the teaching
// lanes: one lane per worker, the resource, the servers, fault bands. Opened from
// File → Open history or `lockscope HISTORY.json`. The verdict (overlaps, stale writes,
// lost locks) heads it; the transport steps through its beats (acquisitions, faults,
// violations) like a simulated story, and it opens at the end so the whole run shows.

#include <QWidget>
#include <memory>

#include "lockscope/sim/replay.h"

class QLabel;

namespace lockscope::ui {

class ElidedLabel;
class ReplayTransport;
class TimelineLanes;

class HistoryView : public QWidget {
    Q_OBJECT
  public:
    explicit HistoryView(QWidget* parent = nullptr);
    ~HistoryView() override;

    // Reads a JSON history (an array, or one object per line). false, with error(), when
    // the file cannot be read or is not a history; nothing shown changes then.
    bool load(const QString& path);
    QString error() const { return error_; }
    QString verdictText() const;
    const sim::Replay* replay() const { return replay_.get(); }
    TimelineLanes* lanes() const { return lanes_; }
    ReplayTransport* transport() const { return transport_; }

  public slots:
    void seek(int beat);

  private:
    void showBeat();

    std::unique_ptr<sim::Replay> replay_;
    QString error_;
    QLabel* title_;
    QLabel* verdict_;
    TimelineLanes* lanes_;
    ReplayTransport* transport_;
    ElidedLabel* now_;
};

}  // namespace lockscope::ui

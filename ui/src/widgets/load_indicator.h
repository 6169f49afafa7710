#pragma once
// What watching costs the servers right now, for the status bar and the command log: commands
// per second and the share of one server core used, against each connection's load budget
// ("LockScope load: 420 cmd/s · server 2.1% of a core (budget 5%)"). With several
// connections the line shows the busiest against its budget and the tooltip lists each.

#include <QLabel>
#include <QMap>
#include <QTimer>

namespace lockscope::ui {

class ConnectionHub;

class LoadIndicator : public QLabel {
    Q_OBJECT
  public:
    explicit LoadIndicator(ConnectionHub& hub, QWidget* parent = nullptr);

    void record(const QString& instance, double commandsPerSecond, double serverShare,
                double budget);
    void forget(const QString& instance);

  private:
    struct Load {
        double commandsPerSecond = 0, serverShare = 0, budget = 0;
    };
    void redraw();
    void setWarning(bool on);

    QMap<QString, Load> loads_;  // by instance
    // Each connection reports every second: fifty connections redrew the line and its
    // fifty-line tooltip fifty times a second (7% of the window's samples, issue 36). The
    // figures are kept as they come and drawn at most every kRedrawEveryMs.
    static constexpr int kRedrawEveryMs = 500;
    QTimer redrawSoon_;
    bool warning_ = false;
};

}  // namespace lockscope::ui

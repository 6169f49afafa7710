#pragma once
// What watching costs the servers right now, for the status bar and the command log: commands
// per second and the share of one server core used, against each connection's load budget
// ("LockScope load: 420 cmd/s · server 2.1% of a core (budget 5%)"). With several
// connections the line shows the busiest against its budget and the tooltip lists each.

#include <QLabel>
#include <QMap>

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

    QMap<QString, Load> loads_;  // by instance
};

}  // namespace lockscope::ui

#pragma once
// A status bar whose message ends in "…" where it meets the permanent widgets (the load
// indicator) instead of running under them, with the whole message in its tooltip. A long
// note ("keyspace notifications are off on this server…") was cut mid-word at 1280 px.

#include <QStatusBar>

namespace lockscope::ui {

class ElidingStatusBar : public QStatusBar {
    Q_OBJECT
  public:
    explicit ElidingStatusBar(QWidget* parent = nullptr);

    // The message as drawn now: elided to the room left of the permanent widgets.
    QString shownMessage() const;

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    QRect messageRect() const;
};

}  // namespace lockscope::ui

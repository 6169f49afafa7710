#pragma once
// Windows that must fit the screen they are on: a dialog taller than a 720 px projector screen
// hides its OK button below the edge.

#include <QScrollArea>

class QWidget;

namespace lockscope::ui {

// Resizes window to its size hint's height, at most maxHeight (its content scrolls below).
void fitHeight(QWidget* window, int maxHeight);

// fitHeight with the room its screen leaves (the available geometry, less the title bar),
// moved up where it would run past the bottom edge.
void fitToScreen(QWidget* window);

// A scroll area that asks for room for all of its content (QScrollArea's own hint stops at
// 24 lines), so a window sized by fitToScreen scrolls only when the screen is too short.
class WholeContentScrollArea : public QScrollArea {
    Q_OBJECT
  public:
    explicit WholeContentScrollArea(QWidget* parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    // The content's layout changed (a section's fields shown or hidden), and so did the hint.
    void contentHintChanged();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace lockscope::ui

#pragma once
// Presenter mode, for a projector: no sidebar, no line under the title, the narration box
// sized for the story, the top row cut down to what a teacher uses, and every font (lanes,
// narration, table, controls) scaled by the teaching view's zoom, 125 % at least. The zoom
// (Ctrl+= / Ctrl+- / Ctrl+0) works in either mode: LaneFonts::zoom() holds it, and
// zoomChanged() asks the panel to set its fonts again.

#include <QObject>

class QBoxLayout;
class QWidget;

namespace lockscope::ui {

class NarrationView;
class ReplayTopRow;
class ReplayTransport;

class PresenterMode : public QObject {
    Q_OBJECT
  public:
    // The parts of the panel presenter mode switches (all owned by the panel, which owns
    // this object too).
    struct Parts {
        QWidget* panel;
        QBoxLayout* panelLayout;  // the transport's row in the normal window: its second
        ReplayTopRow* topRow;
        ReplayTransport* transport;
        QWidget* sidebar;
        QWidget* nowLine;
        NarrationView* narration;
    };
    static constexpr double kMinZoom = 0.6, kMaxZoom = 2.5, kZoomStep = 1.15;
    static constexpr double kPresenterZoom = 1.25;  // a projector's back row

    explicit PresenterMode(Parts parts, QObject* parent = nullptr);

    bool on() const { return on_; }
    void setOn(bool on);
    double zoom() const;
    void zoomIn();
    void zoomOut();
    void resetZoom();  // 100 %, or the presenter zoom in presenter mode
    void setZoom(double factor);

  signals:
    void zoomChanged();

  private:
    void installShortcuts();
    // The top row and the transport: the window's sizes, or scaled with the zoom in
    // presenter mode (capped: the row must still fit a 1280-px projector).
    void scaleControls();

    Parts parts_;
    bool on_ = false;
    double zoomBefore_ = 1.0;  // restored on leaving presenter mode
};

}  // namespace lockscope::ui

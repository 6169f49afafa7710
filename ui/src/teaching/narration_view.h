#pragma once
// The story at the current beat, for reading aloud: virtual time, actor, the command sent
// and its reply in monospace, and the narration. With predict prompts on, a question about
// the next beat is asked under it, and its answer is revealed when the class steps on.
// The verdict after the last beat and the predict question sit in a strip pinned to the
// box's bottom edge, outside the scrolling text: on a 720p projector the beat's text may
// scroll, but what the class must read now never goes below the fold.

#include <QLabel>
#include <QTextBrowser>

#include "lockscope/sim/replay.h"

namespace lockscope::ui {

class NarrationView : public QTextBrowser {
    Q_OBJECT
  public:
    explicit NarrationView(QWidget* parent = nullptr);

    void showReplay(const sim::Replay& replay, bool predict);
    // What is shown, the scrolling text and the pinned strip, as plain text (tests).
    QString plainText() const;
    bool showsQuestion() const { return question_; }
    bool showsAnswer() const { return answer_; }
    bool showsVerdict() const { return verdict_; }
    // The strip with the verdict and the predict question (hidden when it has neither).
    QLabel* pinned() const { return pinned_; }
    // Whether the predict question / the verdict is wholly inside the visible box (tests).
    bool questionInView() const;
    bool verdictInView() const;
    // The box's height that shows the pinned strip at the box's own font with a line of the
    // beat's text above it; 0 when nothing is pinned. The panel gives the box this room
    // where it can, and the strip shrinks its type only where it cannot.
    int neededHeight() const;
    void applyZoom();  // after LaneFonts::zoom() changed

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private slots:
    void layoutPinned();

  private:
    bool pinnedInView() const;

    QLabel* pinned_ = nullptr;
    int pinnedNeed_ = 0;  // the strip's height at the box's font and width
    bool question_ = false;
    bool answer_ = false;
    bool verdict_ = false;
};

}  // namespace lockscope::ui

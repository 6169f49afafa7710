#pragma once
// The story at the current beat, for reading aloud: virtual time, actor, the command sent
// and its reply in monospace, and the narration. With predict prompts on, a question about
// the next beat is asked under it, and its answer is revealed when the class steps on.
// The verdict after the last beat and the predict question sit in a strip pinned to the
// box's bottom edge, outside the scrolling text: on a 720p projector the beat's text may
// scroll, but what the class must read now never goes below the fold.

#include <QHash>
#include <QLabel>
#include <QTextBrowser>

#include "lockscope/sim/replay.h"

namespace lockscope::ui {

class NarrationView : public QTextBrowser {
    Q_OBJECT
  public:
    explicit NarrationView(QWidget* parent = nullptr);

    void showReplay(const sim::Replay& replay, bool predict);
    // Presenter mode: the box is sized for the story, not for one beat. The height that
    // shows every beat of the story (its command, reply, narration and pinned
    // strip) whole at `width` px, with the body type as large as fits `room` (18 px down to
    // 13 px, zoomed); that size is applied. Past 13 px the room is all it gets, and
    // a beat that still does not fit sets smaller type of its own.
    int fitStory(const sim::Replay& replay, bool predict, int width, int room);
    // Presenter mode on (fitStory chooses the type; the beat's time and actor line is left
    // to the line over the lanes) or off (the normal window's type; the box may scroll).
    // The panel shows the beat again after it.
    void setPresenting(bool on);
    // Whether the beat's text is laid out whole inside the visible box (tests).
    bool textWhole() const;
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
    // A beat's text and pinned strip (the verdict, the predict question), with pixel sizes
    // for a body of 18 px (scaled to the body's size when shown).
    struct Composed {
        QString text;
        QString strip;
        bool question = false;
        bool answer = false;
        bool verdict = false;
    };
    Composed compose(const sim::Replay& replay, int beat, bool predict) const;
    void render();  // composed_ at bodyPx_
    // The box's height that shows this beat whole at a body of `bodyPx` and `width`.
    int heightFor(const Composed& beat, int bodyPx, int width) const;
    void shrinkToFit();  // presenter mode: a beat that does not fit sets smaller type
    bool pinnedInView() const;

    Composed composed_;
    int bodyPx_ = 18;                       // the body's type, zoomed
    bool fitting_ = false;                  // presenter mode: the type is chosen for the story
    QSize renderedAt_;                      // the box's size at the last render
    mutable QHash<QString, int> measured_;  // heightFor's answers
    QLabel* measure_ = nullptr;             // a hidden twin of the strip, to measure a beat's strip

    QLabel* pinned_ = nullptr;
    int pinnedNeed_ = 0;  // the strip's height at the box's font and width
    bool question_ = false;
    bool answer_ = false;
    bool verdict_ = false;
};

}  // namespace lockscope::ui

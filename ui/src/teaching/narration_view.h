#pragma once
// The story at the current beat, for reading aloud: virtual time, actor, the command sent
// and its reply in monospace, and the narration. With predict prompts on, a question about
// the next beat is asked under it, and its answer is revealed when the class steps on.

#include <QTextBrowser>

#include "lockscope/sim/replay.h"

namespace lockscope::ui {

class NarrationView : public QTextBrowser {
    Q_OBJECT
  public:
    explicit NarrationView(QWidget* parent = nullptr);

    void showReplay(const sim::Replay& replay, bool predict);
    // What is shown, as plain text (tests).
    QString plainText() const { return toPlainText(); }
    bool showsQuestion() const { return question_; }
    bool showsAnswer() const { return answer_; }
    // Whether the predict question is inside the visible part of the box (tests).
    bool questionInView() const;
    void applyZoom();  // after LaneFonts::zoom() changed

  private:
    bool question_ = false;
    bool answer_ = false;
};

}  // namespace lockscope::ui

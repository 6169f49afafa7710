#pragma once
// The teaching panel's slides. A slide is drawn, not grabbed: at a chosen size (1600×900 by
// default) and scale (2× by default), the full title, any fork note, the timeline (lanes and
// PTTL plot), the current beat's command and narration, and the outcome table. As a PNG, a
// one-page PDF, or a PDF with one page per beat for stepping in a PDF viewer. It borrows the
// panel's widgets for the drawing and gives them back as they were.

#include <QCoreApplication>
#include <QSize>
#include <QString>
#include <functional>

class QLabel;
class QPainter;
class QRectF;
class QSizeF;
class QWidget;

namespace lockscope::sim {
class Replay;
}

namespace lockscope::ui {

class ElidedLabel;
class OutcomeComparison;
class ReplayPttlPlot;

class SlideExporter {
    Q_DECLARE_TR_FUNCTIONS(SlideExporter)
  public:
    // The panel's parts a slide shows; they stay the panel's.
    struct Parts {
        QWidget* panel = nullptr;  // its palette colours the slide
        QWidget* timeline = nullptr;
        ElidedLabel* title = nullptr;
        QLabel* legend = nullptr;
        OutcomeComparison* comparison = nullptr;
        ReplayPttlPlot* pttl = nullptr;
    };
    // What the last slide drawn was given (tests): its narration's, legend's and table's type
    // in pixels, whether the narration fit its box, whether every table label was whole.
    struct SlideFacts {
        int narrationPx = 0;
        int legendPx = 0;
        bool narrationWhole = false;
        bool tableLabelsWhole = false;
        bool plotShown = false;    // the PTTL plot, where the lanes leave it room
        int plotPx = 0;            // its height as drawn, 0 when left out
        int tablePx = 0;           // the outcome table's type
        double contentBottom = 0;  // where the lowest of narration and table ends
    };

    // replay: the story as it stands now (the panel replaces it on every load); showBeat:
    // the panel shows the replay's current beat (a PDF of every beat steps through them).
    SlideExporter(Parts parts, std::function<sim::Replay&()> replay,
                  std::function<void()> showBeat);

    // False, with error(), for a size or scale out of range or a file that cannot be written.
    bool png(const QString& path, QSize size, double scale);
    bool pdf(const QString& path, QSize size, bool everyBeat);
    QString error() const { return error_; }
    const SlideFacts& lastSlide() const { return slide_; }

    // "Forked, not the story as told: …", empty if not forked.
    static QString forkNote(const sim::Replay& replay);

  private:
    void paint(QPainter& painter, const QSizeF& size);
    QString narrationHtml() const;
    bool fail(const QString& message);

    Parts parts_;
    std::function<sim::Replay&()> replay_;
    std::function<void()> showBeat_;
    QString error_;
    SlideFacts slide_;
};

}  // namespace lockscope::ui

#pragma once
// The teaching tab's top row: the story chooser, the seed, predict prompts, the totals
// toggle, a live run, presenter mode, the scenario file menu and the export menu. It only
// reports what the user asked for; the panel acts on it.
// In presenter mode the row keeps what a teacher in front of a room uses (the story, the
// transport's steps, predict prompts, the totals, the way out of presenter mode and the
// export menu as an icon) and sets them in type that reads from the back row: the whole
// row, larger, would not fit a 1280-px projector.

#include <QList>
#include <QWidget>

class QCheckBox;
class QHBoxLayout;
class QComboBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace lockscope::ui {

class ExportOptions;

class ReplayTopRow : public QWidget {
    Q_OBJECT
  public:
    // The export menu ends with `exportOptions`' size and scale choices.
    explicit ReplayTopRow(ExportOptions* exportOptions, QWidget* parent = nullptr);

    QComboBox* chooser() const { return chooser_; }
    QSpinBox* seed() const { return seed_; }
    QCheckBox* predict() const { return predict_; }
    QToolButton* totals() const { return totals_; }
    QToolButton* liveButton() const { return live_; }
    QToolButton* presenterButton() const { return presenter_; }
    QToolButton* fileButton() const { return file_; }
    QToolButton* exportButton() const { return export_; }

    // Presenter mode: the compact row, its type `pixels` high and its icons `iconPixels`;
    // off: every control at the window's own size.
    void setPresenting(bool on, int pixels, int iconPixels);
    bool presenting() const { return presenting_; }
    // Presenter mode puts the transport in the row, after the story (one row of controls
    // leaves the lanes and the narration their height); nullptr gives it back.
    void holdTransport(QWidget* transport);
    // The controls a teacher has in presenter mode (tests: each is shown whole).
    QList<QWidget*> presenterControls() const;

  signals:
    void exportPngRequested();
    void exportPdfRequested();
    void exportSlidesRequested();
    void saveRequested();
    void openRequested();
    void copyCommandRequested();
    void exploreRequested();
    void liveRequested();
    void presenterToggled(bool on);

  private:
    void buildStoryControls();
    void buildExportMenu(ExportOptions* exportOptions);
    void buildFileMenu();
    void buildModeButtons();
    void layOut();

    QHBoxLayout* layout_ = nullptr;
    QLabel* chooserLabel_;
    QComboBox* chooser_;
    QLabel* seedLabel_;
    QSpinBox* seed_;
    QCheckBox* predict_;
    QToolButton* totals_;
    QToolButton* live_;
    QToolButton* presenter_;
    QToolButton* file_;
    QToolButton* export_;
    bool presenting_ = false;
};

}  // namespace lockscope::ui

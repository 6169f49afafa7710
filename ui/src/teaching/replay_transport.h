#pragma once
// The replay's transport: restart, step back, play/pause, step forward, the speed, a
// scrubber over the beats and the position readout. It only reports what the user asked
// for; the panel moves the replay and tells it where the story is.

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace lockscope::ui {

class ReplayTransport : public QWidget {
    Q_OBJECT
  public:
    // The buttons' icons and the position readout's type in the normal window.
    static constexpr int kIconPx = 28, kPositionPx = 16;

    explicit ReplayTransport(QWidget* parent = nullptr);

    // current: -1 before the first beat.
    void setPosition(int current, int count, const QString& time);
    void setPlaying(bool playing);
    double speed() const;
    // The icons and the readout at these sizes (presenter mode scales them with its zoom);
    // the speed chooser follows the readout.
    void setScale(int iconPixels, int positionPixels);
    // Presenter mode: step back, play, step forward and the readout only (Home restarts,
    // and a teacher steps rather than drags), to share the top row.
    void setCompact(bool compact);

    QSlider* scrubber() const { return scrubber_; }
    QToolButton* playButton() const { return play_; }
    QLabel* positionLabel() const { return position_; }

  signals:
    void restartClicked();
    void backClicked();
    void forwardClicked();
    void playClicked();
    void speedChanged(double factor);
    void scrubbed(int beat);

  private:
    QToolButton* button(const QString& icon, const QString& tip);

    QToolButton* restart_;
    QToolButton* back_;
    QToolButton* play_;
    QToolButton* forward_;
    QComboBox* speed_;
    QSlider* scrubber_;
    QLabel* position_;
};

}  // namespace lockscope::ui

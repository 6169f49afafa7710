#include "replay_transport.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

namespace lockscope::ui {

ReplayTransport::ReplayTransport(QWidget* parent) : QWidget(parent) {
    restart_ = button(QStringLiteral("restart"), tr("Restart (Home)"));
    back_ = button(QStringLiteral("step-back"), tr("Step back (←)"));
    play_ = button(QStringLiteral("play"), tr("Play / pause (Space)"));
    forward_ = button(QStringLiteral("step-forward"), tr("Step forward (→)"));
    play_->setObjectName(QStringLiteral("replayPlay"));
    speed_ = new QComboBox;
    speed_->setFocusPolicy(Qt::NoFocus);
    for (double f : {0.5, 1.0, 2.0, 4.0}) speed_->addItem(QStringLiteral("%1×").arg(f), f);
    speed_->setCurrentIndex(1);
    speed_->setToolTip(tr("Playback speed: beats per second"));
    scrubber_ = new QSlider(Qt::Horizontal);
    scrubber_->setObjectName(QStringLiteral("replayScrubber"));
    scrubber_->setFocusPolicy(Qt::NoFocus);
    scrubber_->setTickPosition(QSlider::TicksBelow);
    scrubber_->setPageStep(1);
    scrubber_->setToolTip(tr("Drag through the beats of the story"));
    position_ = new QLabel;
    position_->setMinimumWidth(200);
    setScale(kIconPx, kPositionPx);

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : {static_cast<QWidget*>(restart_), static_cast<QWidget*>(back_),
                       static_cast<QWidget*>(play_), static_cast<QWidget*>(forward_),
                       static_cast<QWidget*>(speed_)})
        row->addWidget(w);
    row->addWidget(scrubber_, 1);
    row->addWidget(position_);

    connect(restart_, &QToolButton::clicked, this, &ReplayTransport::restartClicked);
    connect(back_, &QToolButton::clicked, this, &ReplayTransport::backClicked);
    connect(play_, &QToolButton::clicked, this, &ReplayTransport::playClicked);
    connect(forward_, &QToolButton::clicked, this, &ReplayTransport::forwardClicked);
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this] { emit speedChanged(speed_->currentData().toDouble()); });
    connect(scrubber_, &QSlider::valueChanged, this, &ReplayTransport::scrubbed);
}

QToolButton* ReplayTransport::button(const QString& icon, const QString& tip) {
    auto* b = new QToolButton;
    b->setIcon(QIcon(QStringLiteral(":/icons/%1.svg").arg(icon)));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    b->setFocusPolicy(Qt::NoFocus);  // the keys belong to the replay
    return b;
}

void ReplayTransport::setScale(int iconPixels, int positionPixels) {
    for (QToolButton* b : {restart_, back_, play_, forward_})
        b->setIconSize(QSize(iconPixels, iconPixels));
    QFont f;
    f.setPixelSize(positionPixels);
    f.setBold(true);
    position_->setFont(f);
    // The speed in the window's type, or as large as the readout in presenter mode.
    f.setBold(false);
    speed_->setFont(positionPixels == kPositionPx ? QFont() : f);
}

void ReplayTransport::setCompact(bool compact) {
    for (QWidget* w : {static_cast<QWidget*>(restart_), static_cast<QWidget*>(speed_),
                       static_cast<QWidget*>(scrubber_)})
        w->setVisible(!compact);
}

void ReplayTransport::setPosition(int current, int count, const QString& time) {
    QSignalBlocker block(scrubber_);
    scrubber_->setRange(-1, std::max(-1, count - 1));
    scrubber_->setValue(current);
    position_->setText(current < 0 ? tr("start · %1 beats").arg(count)
                                   : tr("beat %1 / %2 · %3").arg(current + 1).arg(count).arg(time));
    back_->setEnabled(current >= 0);
    restart_->setEnabled(current >= 0);
    forward_->setEnabled(current + 1 < count);
}

void ReplayTransport::setPlaying(bool playing) {
    play_->setIcon(
        QIcon(playing ? QStringLiteral(":/icons/pause.svg") : QStringLiteral(":/icons/play.svg")));
    play_->setToolTip(playing ? tr("Pause (Space)") : tr("Play (Space)"));
}

double ReplayTransport::speed() const {
    return speed_->currentData().toDouble();
}

}  // namespace lockscope::ui

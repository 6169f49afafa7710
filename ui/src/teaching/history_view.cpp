#include "teaching/history_view.h"

#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QVBoxLayout>

#include "lockscope/errors.h"
#include "lockscope/torture/history_story.h"
#include "teaching/elided_label.h"
#include "teaching/narration_text.h"
#include "teaching/replay_transport.h"
#include "teaching/sim_text.h"
#include "teaching/timeline_lanes.h"

namespace lockscope::ui {
namespace {

// A torture run writes about 200 bytes per operation: this is millions of operations, far
// beyond what lanes can show; a larger file is refused rather than read into memory.
constexpr qint64 kMaxHistoryBytes = 256 << 20;

}  // namespace

HistoryView::HistoryView(QWidget* parent) : QWidget(parent) {
    title_ = new QLabel(tr("No history opened"));
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    title_->setFont(big);
    verdict_ = new QLabel;
    verdict_->setWordWrap(true);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lanes_ = new TimelineLanes;
    transport_ = new ReplayTransport;
    now_ = new ElidedLabel;
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addWidget(verdict_);
    layout->addWidget(lanes_, 1);
    layout->addWidget(now_);
    layout->addWidget(transport_);

    connect(transport_, &ReplayTransport::scrubbed, this, &HistoryView::seek);
    connect(transport_, &ReplayTransport::restartClicked, this, [this] { seek(-1); });
    connect(transport_, &ReplayTransport::backClicked, this, [this] {
        if (replay_) seek(replay_->currentBeat() - 1);
    });
    connect(transport_, &ReplayTransport::forwardClicked, this, [this] {
        if (replay_) seek(replay_->currentBeat() + 1);
    });
    connect(lanes_, &TimelineLanes::timeClicked, this, [this](sim::VirtualMs t) {
        if (!replay_) return;
        replay_->seekTime(t);
        showBeat();
    });
}

HistoryView::~HistoryView() {
    lanes_->setReplay(nullptr);
}

bool HistoryView::load(const QString& path) {
    if (path.endsWith(QStringLiteral(".edn"), Qt::CaseInsensitive)) {
        error_ = tr("%1 is an EDN history: the window reads the JSON one (lockscope-cli torture "
                    "--history run.json)")
                     .arg(path);
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error_ = tr("Cannot open %1: %2").arg(path, file.errorString());
        return false;
    }
    if (file.size() > kMaxHistoryBytes) {
        error_ = tr("%1 is %2 MB: larger than any history the lanes can show (at most %3 MB)")
                     .arg(path)
                     .arg(file.size() >> 20)
                     .arg(kMaxHistoryBytes >> 20);
        return false;
    }
    const QByteArray bytes = file.readAll();
    try {
        torture::HistoryStory story = torture::storyOfHistory(torture::historyFromJson(
            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
        auto replay = std::make_unique<sim::Replay>(std::move(story.recording), story.title,
                                                    std::move(story.outcomeAtBeat));
        lanes_->setReplay(replay.get());
        replay_ = std::move(replay);
        title_->setText(tr("Torture history: %1").arg(QFileInfo(path).fileName()));
        const auto& v = story.verdict;
        const bool bad = v.overlaps > 0 || v.staleWritesAccepted.value_or(0) > 0;
        verdict_->setText(
            QStringLiteral("<span style='color:%1'><b>%2</b></span>")
                .arg(bad ? QStringLiteral("#c62828") : QStringLiteral("#2e7d32"),
                     qs(story.title).toHtmlEscaped()) +
            (v.overlapWindow ? QStringLiteral("<br>") + qs(v.overlapWindow->what).toHtmlEscaped()
                             : QString()) +
            (v.staleWriteWindow
                 ? QStringLiteral("<br>") + qs(v.staleWriteWindow->what).toHtmlEscaped()
                 : QString()));
        error_.clear();
    } catch (const Error& e) {
        error_ = tr("%1 is not a torture history: %2").arg(path, QString::fromUtf8(e.what()));
        return false;
    }
    // The whole run at once; the transport steps back through it.
    seek(static_cast<int>(replay_->beats().size()) - 1);
    return true;
}

QString HistoryView::verdictText() const {
    return verdict_->text();
}

void HistoryView::seek(int beat) {
    if (!replay_) return;
    replay_->seek(beat);
    showBeat();
}

void HistoryView::showBeat() {
    const sim::Replay& r = *replay_;
    lanes_->refresh();
    transport_->setPosition(r.currentBeat(), static_cast<int>(r.beats().size()),
                            virtualTimeText(r.currentTime()));
    if (const sim::Beat* b = r.beat())
        now_->setFullText(tr("%1 · beat %2/%3 · %4")
                              .arg(virtualTimeText(b->time))
                              .arg(b->index + 1)
                              .arg(r.beats().size())
                              .arg(narrationText(*b)));
    else
        now_->setFullText(tr("Before the first beat"));
}

}  // namespace lockscope::ui

#include "widgets/redlock_group_panel.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "lockscope/inspect/formats/lock_families.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/redlock_group.h"
#include "lockscope/inspect/resource_groups.h"
#include "models/lock_table_model.h"

namespace lockscope::ui {
namespace {

constexpr int kTickMs = 500;  // the PTTL column shows seconds: twice a second is live

// Sets a cell's text, reusing its item: a tick rewrites every cell and must not reset the
// table's selection or scroll position.
void setCell(QTableWidget* table, int row, int column, const QString& text,
             const QFont* font = nullptr) {
    QTableWidgetItem* item = table->item(row, column);
    if (!item) {
        item = new QTableWidgetItem;
        table->setItem(row, column, item);
    }
    if (item->text() != text) item->setText(text);
    if (font) item->setFont(*font);
}

QString pttlText(const inspect::LockRecord& r, inspect::SteadyClock::time_point now) {
    if (!r.hasTtl()) return QObject::tr("no TTL");
    return LockTableModel::formatDuration(std::max<std::int64_t>(0, r.remainingAt(now)));
}

}  // namespace

RedlockGroupPanel::RedlockGroupPanel(QWidget* parent) : QWidget(parent) {
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    nodes_ = new QTableWidget(0, 3);
    nodes_->setHorizontalHeaderLabels({tr("Instance"), tr("Holder"), tr("PTTL left")});
    nodes_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    nodes_->verticalHeader()->hide();
    nodes_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(nodes_, 1);
    ticker_.setInterval(kTickMs);
    connect(&ticker_, &QTimer::timeout, this, &RedlockGroupPanel::refresh);
}

QString RedlockGroupPanel::summary() const {
    return summary_->text();
}

void RedlockGroupPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
    ticker_.start();
}

void RedlockGroupPanel::hideEvent(QHideEvent* event) {
    ticker_.stop();
    QWidget::hideEvent(event);
}

QString RedlockGroupPanel::showFor(const inspect::LockRecord& selected,
                                   const std::vector<inspect::LockRecord>& records,
                                   const std::vector<GroupInstance>& instances) {
    auto serverOf = [&](const std::string& instance) {
        for (const auto& i : instances)
            if (i.instance == instance) return i.server;
        return QString::fromStdString(instance);
    };
    if (selected.kind == inspect::LockKind::SidekiqUniqueJobs) {
        const QString server = serverOf(selected.instanceName());
        std::vector<inspect::LockRecord> sameServer;
        for (const auto& r : records)
            if (serverOf(r.instanceName()) == server) sameServer.push_back(r);
        std::vector<std::string> clusterNodes;
        for (const auto& i : instances)
            if (i.clusterNode && i.server == server) clusterNodes.push_back(i.instance);
        showDigest(selected, sameServer, clusterNodes);
        return tr("Digest");
    }
    // The Redlock set: independent servers. A cluster's nodes are one server's shards, not
    // Redlock's N (the lock's own node stands for its cluster).
    std::vector<std::string> independent;
    for (const auto& i : instances)
        if (!i.clusterNode || i.instance == selected.instanceName())
            independent.push_back(i.instance);
    std::sort(independent.begin(), independent.end());
    std::vector<inspect::LockRecord> onThem;
    for (const auto& r : records)
        if (std::binary_search(independent.begin(), independent.end(), r.instanceName()))
            onThem.push_back(r);
    if (!inspect::isRedlock(onThem, independent)) {
        mode_ = Mode::None;
        records_.clear();
        summary_->clear();
        nodes_->setRowCount(0);
        return {};
    }
    show(std::string(selected.resource()), onThem, independent);
    return tr("Redlock group");
}

void RedlockGroupPanel::show(const std::string& resource,
                             const std::vector<inspect::LockRecord>& records,
                             const std::vector<std::string>& instances) {
    mode_ = Mode::Redlock;
    resource_ = resource;
    records_ = records;
    instances_ = instances;
    nodes_->setHorizontalHeaderLabels({tr("Instance"), tr("Holder"), tr("PTTL left")});
    nodes_->setColumnHidden(0, false);
    fillRedlock();
}

void RedlockGroupPanel::refresh() {
    if (mode_ == Mode::Redlock)
        fillRedlock();
    else if (mode_ == Mode::Digest)
        fillDigest();
}

void RedlockGroupPanel::fillRedlock() {
    if (instances_.size() < 2) {
        summary_->setText(tr(
            "Connect the other independent primaries too (a Redlock runs on N of them) to see "
            "whether a majority agrees on this lock's holder and how much validity it has left."));
        nodes_->setRowCount(0);
        return;
    }
    inspect::ResourceGroup group{resource_, {}, 0, true};
    for (std::size_t i = 0; i < records_.size(); ++i) group.records.push_back(i);
    auto view =
        inspect::analyzeGroup(records_, group, instances_, std::chrono::steady_clock::now());
    QString holder = view.token ? QString::fromStdString(*view.token).left(40) : QString();
    if (view.majority)
        summary_->setText(
            tr("<b>%1 of %2</b> nodes agree (quorum %3) on <code>%4</code>; validity left %5.")
                .arg(view.agreeing)
                .arg(view.nodes.size())
                .arg(view.quorum)
                .arg(holder.toHtmlEscaped(),
                     view.validityMs < 0 ? tr("unbounded (no TTL)")
                                         : LockTableModel::formatDuration(view.validityMs)));
    else
        summary_->setText(
            tr("<b>No majority</b>: at best %1 of %2 nodes agree, the quorum is %3. If these "
               "%2 servers are its Redlock set, nobody holds this lock as a Redlock.")
                .arg(view.agreeing)
                .arg(view.nodes.size())
                .arg(view.quorum));
    nodes_->setRowCount(int(view.nodes.size()));
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (int i = 0; i < int(view.nodes.size()); ++i) {
        const auto& n = view.nodes[std::size_t(i)];
        setCell(nodes_, i, 0, QString::fromStdString(n.instance));
        setCell(nodes_, i, 1,
                n.token ? QString::fromStdString(*n.token)
                        : QString::fromLatin1(inspect::toString(n.state)),
                &mono);
        setCell(nodes_, i, 2,
                n.state != inspect::RedlockNodeState::Held ? QStringLiteral("—")
                : n.pttlMs < 0                             ? tr("no TTL")
                               : LockTableModel::formatDuration(n.pttlMs));
    }
}

void RedlockGroupPanel::showDigest(const inspect::LockRecord& selected,
                                   const std::vector<inspect::LockRecord>& records,
                                   const std::vector<std::string>& clusterNodes) {
    mode_ = Mode::Digest;
    records_ = records;
    clusterNodes_ = clusterNodes;
    selectedInstance_ = selected.instanceName();
    nodes_->setRowCount(0);
    nodes_->setHorizontalHeaderLabels({tr("Instance"), tr("Key"), tr("PTTL left")});
    fillDigest();
}

QString RedlockGroupPanel::lockedNotSeen(const std::string& lockedKey) const {
    // On one server, its LOCKED hash would have been read with the digest's other keys. On a
    // cluster it sits in its own slot, on whichever node serves it: unless a key of that slot
    // was read here, its absence says nothing about the holder.
    const int slot = inspect::keyHashSlot(lockedKey);
    const bool slotRead = std::any_of(records_.begin(), records_.end(),
                                      [&](const auto& r) { return r.slot == slot; });
    if (clusterNodes_.empty() || slotRead) return tr("; no job holds it (no LOCKED hash seen).");
    QStringList nodes;
    for (const auto& n : clusterNodes_) nodes << QString::fromStdString(n).toHtmlEscaped();
    return tr("; its LOCKED hash (slot %1) not read on %2… holder unknown.")
        .arg(slot)
        .arg(nodes.join(QStringLiteral(", ")));
}

void RedlockGroupPanel::fillDigest() {
    // One digest lives on one server; on a cluster its keys hash to different slots, so its
    // LOCKED hash may be on another node than the key selected: grouped as one server.
    auto oneServer = std::make_shared<const std::string>(selectedInstance_);
    std::vector<inspect::LockRecord> asOne = records_;
    for (auto& r : asOne) r.instance = oneServer;
    const auto digests = inspect::groupSidekiqDigests(asOne);
    if (digests.empty()) {
        nodes_->setRowCount(0);
        summary_->setText(tr("No other key of this digest was seen."));
        return;
    }
    const auto& digest = digests.front();
    const auto now = std::chrono::steady_clock::now();
    const inspect::LockRecord* locked = nullptr;
    bool severalNodes = false;
    for (std::size_t i : digest.records) {
        const auto& r = records_[i];
        if (r.type == inspect::ValueType::Hash && r.key.ends_with(":LOCKED")) locked = &r;
        severalNodes |= r.instanceName() != selectedInstance_;
    }
    nodes_->setColumnHidden(0, !severalNodes);
    QStringList jobs;
    for (const auto& job : digest.jobs) jobs << QString::fromStdString(job).toHtmlEscaped();
    const QString keys =
        digest.records.size() == 1 ? tr("1 key") : tr("%1 keys").arg(digest.records.size());
    summary_->setText(tr("sidekiq-unique-jobs digest <code>%1</code>: <b>%2</b>, one lock")
                          .arg(QString::fromStdString(digest.digest).toHtmlEscaped(), keys) +
                      (!locked ? lockedNotSeen(digest.digest + ":LOCKED")
                       : jobs.isEmpty()
                           ? tr("; no job holds it (its LOCKED hash holds no job id).")
                           : tr("; held by job %1, %2 left. Release removes every key of the "
                                "digest together, only if LOCKED still holds these jobs.")
                                 .arg(jobs.join(QStringLiteral(", ")), pttlText(*locked, now))));
    nodes_->setRowCount(int(digest.records.size()));
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (int row = 0; row < int(digest.records.size()); ++row) {
        const auto& r = records_[digest.records[std::size_t(row)]];
        setCell(nodes_, row, 0, QString::fromStdString(r.instanceName()));
        setCell(nodes_, row, 1, QString::fromStdString(r.key), &mono);
        setCell(nodes_, row, 2, pttlText(r, now));
    }
}

}  // namespace lockscope::ui

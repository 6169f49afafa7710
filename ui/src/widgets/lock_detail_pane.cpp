#include "widgets/lock_detail_pane.h"

#include <QDateTime>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

#include "models/finding_text.h"
#include "models/liveness_text.h"
#include "models/lock_table_model.h"
#include "widgets/pttl_plot.h"
#include "widgets/redlock_group_panel.h"

namespace lockscope::ui {

LockDetailPane::LockDetailPane(QWidget* parent) : QWidget(parent) {
    title_ = new QLabel;
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    title_->setFont(big);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    plot_ = new PttlPlot;
    history_ = new QTableWidget(0, 3);
    history_->setHorizontalHeaderLabels({tr("Since"), tr("Holder"), tr("Fence")});
    history_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    history_->verticalHeader()->hide();
    history_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    findings_ = new QTextBrowser;
    findings_->setOpenExternalLinks(false);
    liveness_ = new QTextBrowser;
    liveness_->setObjectName(QStringLiteral("holderLiveness"));

    release_ = new QPushButton(QIcon(QStringLiteral(":/icons/release.svg")), tr("Release"));
    release_->setToolTip(
        tr("Delete the lock only if it still holds the token shown (Lua compare-and-delete)"));
    addTtl_ = new QPushButton(QIcon(QStringLiteral(":/icons/add-ttl.svg")), tr("Add TTL…"));
    addTtl_->setToolTip(
        tr("Give the lock a TTL, only if the holder is unchanged: the cure for an orphan"));
    forceDelete_ =
        new QPushButton(QIcon(QStringLiteral(":/icons/force-delete.svg")), tr("Force delete…"));
    forceDelete_->setToolTip(tr("DEL whatever is there now; asks you to type the key name"));
    readOnlyNote_ = new QLabel(
        tr("Read-only connection: LockScope sends no writes here, so the actions are off."));
    readOnlyNote_->setWordWrap(true);
    result_ = new QLabel;
    result_->setWordWrap(true);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* actions = new QHBoxLayout;
    actions->addWidget(release_);
    actions->addWidget(addTtl_);
    actions->addWidget(forceDelete_);
    actions->addStretch();

    auto* tabs = new QTabWidget;
    tabs->addTab(history_, tr("Token history"));
    tabs->addTab(findings_, tr("Findings"));
    tabs->addTab(liveness_, tr("Holder alive?"));
    group_ = new RedlockGroupPanel;
    tabs->addTab(group_, tr("Redlock group"));
    groupTabs_ = tabs;
    auto* split = new QSplitter(Qt::Horizontal);
    split_ = split;
    split->addWidget(plot_);
    split->addWidget(tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({620, 420});

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);
    layout->addLayout(actions);
    layout->addWidget(readOnlyNote_);
    layout->addWidget(result_);

    connect(release_, &QPushButton::clicked, this, &LockDetailPane::confirmRelease);
    connect(addTtl_, &QPushButton::clicked, this, &LockDetailPane::askTtl);
    // The header's TTL counts down with the table's, ten times a second.
    auto* ticker = new QTimer(this);
    connect(ticker, &QTimer::timeout, this, [this] {
        if (record_ && record_->hasTtl() && !vanished_ && !stale_) updateSummary();
    });
    ticker->start(100);
    connect(forceDelete_, &QPushButton::clicked, this, &LockDetailPane::confirmForceDelete);
    showLock(std::nullopt, nullptr, false);
}

void LockDetailPane::setGroupTitle(const QString& title) {
    const int tab = groupTabs_->indexOf(group_);
    groupTabs_->setTabVisible(tab, !title.isEmpty());
    if (!title.isEmpty()) groupTabs_->setTabText(tab, title);
}

void LockDetailPane::showLock(const std::optional<inspect::LockRecord>& record,
                              const LockTrack* track, bool readOnly, bool stale) {
    bool changedLock = !record_ || !record || record_->key != record->key ||
                       record_->instanceName() != record->instanceName();
    record_ = record;
    if (changedLock && record) result_->clear();  // a released lock vanishes: keep saying so
    for (QPushButton* b : {release_, addTtl_, forceDelete_})
        b->setEnabled(record && !readOnly && !stale);
    readOnlyNote_->setText(
        stale
            ? tr("Connection down: this row is what was last seen, so the actions are off "
                 "until the server answers again and a rescan has confirmed the lock.")
            : tr("Read-only connection: LockScope sends no writes here, so the actions are off."));
    readOnlyNote_->setVisible(readOnly || stale);
    whyOff_ = !record    ? tr("Select a lock first")
              : stale    ? tr("The connection is down: the lock may be gone or have changed hands")
              : readOnly ? tr("Read-only connection: LockScope sends no writes")
                         : QString();
    // With no lock, only the title and the hint: the chart and the tabs would be empty boxes
    // taking half the window's height (the inspector then gives the table that room).
    split_->setVisible(bool(record));
    for (QPushButton* b : {release_, addTtl_, forceDelete_}) b->setVisible(bool(record));
    if (!record) {
        title_->setText(tr("No lock selected"));
        summary_->setText(
            tr("Select a lock in the table to see its TTL history, holders and findings."));
        findings_->clear();
        liveness_->clear();
        history_->setRowCount(0);
        plot_->show(nullptr, QString());
        emit actionsChanged();
        return;
    }
    addTtl_->setEnabled(!readOnly && !stale && !record->hasTtl());
    emit actionsChanged();
    title_->setText(QString::fromUtf8(record->key.data(), qsizetype(record->key.size())));
    stale_ = stale;
    vanished_ = false;
    updateSummary();
    findings_->setHtml(findingDetails(record->findings, record->kind));
    liveness_->setHtml(livenessDetails(*record, inspect::WallClock::now()));
    // An orphan is what the operator came for: its evidence is the tab to read first.
    if (changedLock && isOrphan(*record)) groupTabs_->setCurrentWidget(liveness_);
    refreshTrack(track);
}

void LockDetailPane::updateSummary() {
    if (!record_) return;
    const inspect::LockRecord& r = *record_;
    // The TTL counts down live, as in the table; once the key is gone or the connection
    // down there is no live value to show.
    QString ttl = !r.hasTtl() ? tr("<b>no TTL</b>")
                  : vanished_ ? tr("gone")
                  : stale_    ? tr("TTL unknown (connection down)")
                              : tr("TTL %1").arg(LockTableModel::formatDuration(
                                    r.remainingAt(inspect::SteadyClock::now())));
    summary_->setText(
        tr("<b>%1</b> lock on %2 — resource <code>%3</code>, fence %4, %5, holder <code>%6</code>")
            .arg(QString::fromLatin1(inspect::toString(r.kind)),
                 QString::fromStdString(r.instanceName()).toHtmlEscaped(),
                 QString::fromUtf8(r.resource().data(), qsizetype(r.resource().size()))
                     .toHtmlEscaped(),
                 r.fence ? QString::number(*r.fence) : tr("none"), ttl,
                 holderOf(r).left(80).toHtmlEscaped()));
}

void LockDetailPane::markVanished(const LockTrack* track) {
    if (!record_) return;
    vanished_ = true;
    updateSummary();
    QString how = tr("released, expired or deleted");
    if (track && !track->holders.isEmpty() && track->holders.back().vanished)
        how = toString(track->holders.back().event);
    title_->setText(tr("%1 (gone: %2)").arg(QString::fromStdString(record_->key), how));
    for (QPushButton* b : {release_, addTtl_, forceDelete_}) b->setEnabled(false);
    whyOff_ = tr("The lock is gone (released, expired or deleted)");
    emit actionsChanged();
    refreshTrack(track);
}

void LockDetailPane::refreshTrack(const LockTrack* track) {
    fillHistory(track);
    plot_->show(track, record_ ? QString::fromStdString(record_->key) : QString());
}

void LockDetailPane::fillHistory(const LockTrack* track) {
    if (!track) {
        history_->setRowCount(0);
        return;
    }
    history_->setRowCount(int(track->holders.size()));
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (int i = 0; i < track->holders.size(); ++i) {
        const HolderChange& h = track->holders[track->holders.size() - 1 - i];  // newest first
        auto* when = new QTableWidgetItem(
            QDateTime::fromMSecsSinceEpoch(qint64(h.time * 1000)).toString("hh:mm:ss.zzz"));
        auto* who = new QTableWidgetItem(h.vanished ? QStringLiteral("(%1)").arg(toString(h.event))
                                                    : h.token);
        who->setFont(mono);
        who->setToolTip(h.token);
        auto* fence =
            new QTableWidgetItem(h.fence ? QString::number(*h.fence) : QStringLiteral("—"));
        history_->setItem(i, 0, when);
        history_->setItem(i, 1, who);
        history_->setItem(i, 2, fence);
    }
}

void LockDetailPane::askTtl() {
    if (!record_) return;
    bool ok = false;
    int seconds = QInputDialog::getInt(
        this, tr("Add TTL"),
        tr("Expire %1 in how many seconds, if its holder is still the one shown?")
            .arg(QString::fromStdString(record_->key)),
        30, 1, 7 * 24 * 3600, 1, &ok);
    if (ok) emit addTtlRequested(*record_, qint64(seconds) * 1000);
}

QString LockDetailPane::whyDisabled(const QPushButton* button) const {
    if (button->isEnabled()) return {};
    if (!whyOff_.isEmpty()) return whyOff_;
    if (button == addTtl_ && record_ && record_->hasTtl())
        return tr("The lock has a TTL already: Add TTL is the cure for a lock without one");
    return tr("Not available for this lock");
}

void LockDetailPane::confirmRelease() {
    if (!record_) return;
    if (confirmRelease_) {
        const inspect::LockRecord seen = *record_;  // what the operator confirms
        QMessageBox box(QMessageBox::Question, tr("Release lock"),
                        tr("Release this lock? It is deleted only if its holder is still the "
                           "one below."),
                        QMessageBox::Yes | QMessageBox::Cancel, this);
        box.setInformativeText(
            whereText(seen) +
            tr("Key: %1\nHolder: %2\nFence: %3\nTTL: %4")
                .arg(
                    QString::fromUtf8(seen.key.data(), qsizetype(seen.key.size())),
                    holderOf(seen).left(120),
                    seen.fence ? QString::number(*seen.fence) : tr("none"),
                    LockTableModel::formatDuration(seen.remainingAt(inspect::SteadyClock::now()))) +
            QStringLiteral("\n\n") + livenessForConfirmation(seen, inspect::WallClock::now()));
        box.button(QMessageBox::Yes)->setText(tr("Release"));
        box.setDefaultButton(QMessageBox::Yes);  // Enter confirms
        box.setObjectName(QStringLiteral("releaseConfirmation"));
        if (box.exec() != QMessageBox::Yes) return;
        emit releaseRequested(seen);
        return;
    }
    emit releaseRequested(*record_);
}

QString LockDetailPane::whereText(const inspect::LockRecord& seen) const {
    // Which server the action goes to: with several connections (or a cluster's nodes) the
    // key alone does not say which lock is meant.
    const QString node = QString::fromStdString(seen.instanceName());
    QString text;
    if (!connectionName_.isEmpty()) text += tr("Connection: %1\n").arg(connectionName_);
    text += nodeRole_.isEmpty() ? tr("Node: %1\n").arg(node)
                                : tr("Node: %1 (%2)\n").arg(node, nodeRole_);
    return text;
}

void LockDetailPane::setWhere(const QString& connectionName, const QString& nodeRole) {
    connectionName_ = connectionName;
    nodeRole_ = nodeRole;
}

void LockDetailPane::confirmForceDelete() {
    if (!record_) return;
    QString key = QString::fromStdString(record_->key);
    bool ok = false;
    QString typed = QInputDialog::getText(
        this, tr("Force delete"),
        tr("Force delete removes the key whoever holds it now. Type the key name to "
           "confirm:\n%1\n%2")
            .arg(whereText(*record_).trimmed(), key),
        QLineEdit::Normal, QString(), &ok);
    if (!ok) return;
    if (typed != key) {
        showActionResult(false, tr("The name typed does not match; nothing was deleted."));
        return;
    }
    emit forceDeleteRequested(*record_);
}

void LockDetailPane::showActionResult(bool ok, const QString& message) {
    result_->setText((ok ? QStringLiteral("✔ ") : QStringLiteral("✘ ")) + message);
    QPalette p = result_->palette();
    p.setColor(QPalette::WindowText, ok ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    result_->setPalette(p);
}

}  // namespace lockscope::ui

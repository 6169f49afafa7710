#include "widgets/redlock_group_panel.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "lockscope/inspect/lock_families.h"
#include "lockscope/inspect/redlock_group.h"
#include "lockscope/inspect/resource_groups.h"
#include "models/lock_table_model.h"

namespace lockscope::ui {

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
}

QString RedlockGroupPanel::summary() const {
    return summary_->text();
}

void RedlockGroupPanel::show(const std::string& resource,
                             const std::vector<inspect::LockRecord>& records,
                             const std::vector<std::string>& instances) {
    nodes_->setHorizontalHeaderLabels({tr("Instance"), tr("Holder"), tr("PTTL left")});
    nodes_->setColumnHidden(0, false);
    if (instances.size() < 2) {
        summary_->setText(tr(
            "Connect the other independent primaries too (a Redlock runs on N of them) to see "
            "whether a majority agrees on this lock's holder and how much validity it has left."));
        nodes_->setRowCount(0);
        return;
    }
    inspect::ResourceGroup group{resource, {}, 0, true};
    for (std::size_t i = 0; i < records.size(); ++i) group.records.push_back(i);
    auto view = inspect::analyzeGroup(records, group, instances, std::chrono::steady_clock::now());
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
            tr("<b>No majority</b>: at best %1 of %2 nodes agree, the quorum is %3. As a Redlock, "
               "nobody holds this lock.")
                .arg(view.agreeing)
                .arg(view.nodes.size())
                .arg(view.quorum));
    nodes_->setRowCount(int(view.nodes.size()));
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (int i = 0; i < int(view.nodes.size()); ++i) {
        const auto& n = view.nodes[std::size_t(i)];
        auto* who = new QTableWidgetItem(n.token ? QString::fromStdString(*n.token)
                                                 : QString::fromLatin1(inspect::toString(n.state)));
        who->setFont(mono);
        nodes_->setItem(i, 0, new QTableWidgetItem(QString::fromStdString(n.instance)));
        nodes_->setItem(i, 1, who);
        nodes_->setItem(i, 2,
                        new QTableWidgetItem(n.state == inspect::RedlockNodeState::Held
                                                 ? LockTableModel::formatDuration(n.pttlMs)
                                                 : QStringLiteral("—")));
    }
}

void RedlockGroupPanel::showDigest(const inspect::LockRecord& selected,
                                   const std::vector<inspect::LockRecord>& records) {
    nodes_->setRowCount(0);
    nodes_->setColumnHidden(0, true);  // one digest lives on one instance
    for (const auto& digest : inspect::groupSidekiqDigests(records)) {
        if (digest.instance != selected.instanceName()) continue;
        QStringList jobs;
        for (const auto& job : digest.jobs) jobs << QString::fromStdString(job).toHtmlEscaped();
        const QString keys =
            digest.records.size() == 1 ? tr("1 key") : tr("%1 keys").arg(digest.records.size());
        summary_->setText(
            tr("sidekiq-unique-jobs digest <code>%1</code>: <b>%2</b>, one lock")
                .arg(QString::fromStdString(digest.digest).toHtmlEscaped(), keys) +
            (jobs.isEmpty()
                 ? tr("; no job holds it (no LOCKED hash seen).")
                 : tr("; held by job %1, %2 left. Release removes every key of the "
                      "digest together, only if LOCKED still holds these jobs.")
                       .arg(jobs.join(QStringLiteral(", ")),
                            digest.pttlMs < 0 ? tr("no TTL")
                                              : LockTableModel::formatDuration(digest.pttlMs))));
        nodes_->setRowCount(int(digest.records.size()));
        QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        for (int row = 0; row < int(digest.records.size()); ++row) {
            const auto& r = records[digest.records[std::size_t(row)]];
            auto* key = new QTableWidgetItem(QString::fromStdString(r.key));
            key->setFont(mono);
            nodes_->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(r.instanceName())));
            nodes_->setItem(row, 1, key);
            nodes_->setItem(
                row, 2,
                new QTableWidgetItem(r.hasTtl() ? LockTableModel::formatDuration(r.remainingAt(
                                                      std::chrono::steady_clock::now()))
                                                : tr("no TTL")));
        }
        nodes_->setHorizontalHeaderLabels({tr("Instance"), tr("Key"), tr("PTTL left")});
        return;
    }
    summary_->setText(tr("No other key of this digest was seen."));
}

}  // namespace lockscope::ui

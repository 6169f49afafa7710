// LockInspectorView, the actions on the selected lock: the detail pane's buttons, the menus
// and shortcuts, and their results.
#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>

#include "models/lock_filter_proxy.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "session/lock_companions.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"

namespace lockscope::ui {

void LockInspectorView::connectActions() {
    connect(&hub_, &ConnectionHub::actionFinished, this,
            [this](const QString& instance, const QString& key, const QString& action, bool ok, int,
                   const QString& message) {
                const auto& shown = detail_->shown();
                if (shown && QString::fromStdString(shown->instanceName()) == instance &&
                    QString::fromStdString(shown->key) == key)
                    detail_->showActionResult(ok, message);
                emit statusMessage(tr("%1 %2 on %3: %4").arg(action, key, instance, message), 8000);
            });
    connect(
        detail_, &LockDetailPane::releaseRequested, this, [this](const inspect::LockRecord& seen) {
            // A sidekiq key stands for its whole digest: released through its LOCKED hash.
            auto digestLock = sidekiqDigestLock(seen, model_->recordsOfResource(seen.resource()));
            const inspect::LockRecord& target = digestLock ? *digestLock : seen;
            hub_.act(QString::fromStdString(target.instanceName()), LockAction::Release, target);
        });
    connect(detail_, &LockDetailPane::addTtlRequested, this,
            [this](const inspect::LockRecord& seen, qint64 ttlMs) {
                hub_.act(QString::fromStdString(seen.instanceName()), LockAction::AddTtl, seen,
                         ttlMs);
            });
    connect(detail_, &LockDetailPane::forceDeleteRequested, this,
            [this](const inspect::LockRecord& seen) {
                hub_.act(QString::fromStdString(seen.instanceName()), LockAction::ForceDelete, seen,
                         0, true);
            });
}

void LockInspectorView::focusFilter() {
    filter_->setFocus();
    filter_->selectAll();
}

void LockInspectorView::releaseSelected() {
    if (detail_->releaseButton()->isEnabled()) detail_->releaseButton()->click();
}

void LockInspectorView::addTtlToSelected() {
    if (detail_->addTtlButton()->isEnabled()) detail_->addTtlButton()->click();
}

void LockInspectorView::forceDeleteSelected() {
    if (detail_->forceDeleteButton()->isEnabled()) detail_->forceDeleteButton()->click();
}

void LockInspectorView::copySelectedToken() {
    auto rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return;
    QString token = proxy_->index(rows.first().row(), LockTableModel::Holder)
                        .data(LockTableModel::FullTokenRole)
                        .toString();
    QApplication::clipboard()->setText(token);
    emit statusMessage(tr("Copied holder token %1").arg(token.left(40)), 4000);
}

}  // namespace lockscope::ui

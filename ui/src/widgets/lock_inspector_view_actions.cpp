// LockInspectorView, the lock actions of the menus and shortcuts on the selected lock.
#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>

#include "models/lock_filter_proxy.h"
#include "models/lock_table_model.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"

namespace lockscope::ui {

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

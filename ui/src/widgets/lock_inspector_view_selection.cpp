// LockInspectorView, the selection: the selected lock in the detail pane, and the room the
// pane gets with and without one.
#include <QSplitter>
#include <QTableView>
#include <QTimer>

#include "models/lock_filter_proxy.h"
#include "models/lock_row_feed.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/pttl_plot.h"
#include "widgets/redlock_group_panel.h"

namespace lockscope::ui {

RowKey LockInspectorView::selectedRowKey() const {
    auto rows = table_->selectionModel()->selectedRows();
    return rows.isEmpty() ? RowKey{}
                          : rows.first().data(LockTableModel::RowKeyRole).value<RowKey>();
}

bool LockInspectorView::selectedIsReadOnly() const {
    auto rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return false;
    const auto* record = model_->recordAt(proxy_->mapToSource(rows.first()).row());
    const ConnectionProfile* p =
        record ? hub_.profileForInstance(QString::fromStdString(record->instanceName())) : nullptr;
    return p && p->readOnly;
}

void LockInspectorView::onSelectionChanged() {
    if (!selectedRowKey().isEmpty()) followKey_ = {};  // the operator chose another lock
    showSelected();
}

void LockInspectorView::showSelected() {
    auto rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        detail_->showLock(std::nullopt, nullptr, false);
        detail_->plot()->setFailovers({});
        fitDetail(false);
        return;
    }
    fitDetail(true);
    const auto* record = model_->recordAt(proxy_->mapToSource(rows.first()).row());
    if (!record) return;
    const QString instance = QString::fromStdString(record->instanceName());
    const ConnectionProfile* profile = hub_.profileForInstance(instance);
    const ConnectionProfile* connection =
        profile && !profile->clusterOf.isEmpty() ? hub_.profile(profile->clusterOf) : profile;
    detail_->setWhere(connection ? connection->name : QString(), model_->nodeDescription(instance));
    detail_->showLock(*record, feed_->history().ensure(selectedRowKey(), *record),
                      selectedIsReadOnly(), model_->isStale(*record));
    const auto failovers = failovers_.find(QString::fromStdString(record->instanceName()));
    detail_->plot()->setFailovers(failovers != failovers_.end() ? failovers->second
                                                                : std::vector<double>{});
    std::vector<GroupInstance> instances;
    for (const QString& i : model_->instanceNames()) {
        const ConnectionProfile* p = hub_.profileForInstance(i);
        const QString server = !p ? i : p->clusterOf.isEmpty() ? p->id : p->clusterOf;
        instances.push_back({i.toStdString(), server, model_->isClusterNode(i)});
    }
    detail_->setGroupTitle(detail_->group()->showFor(
        *record, model_->recordsOfResource(record->resource()), instances));
}

void LockInspectorView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // Laid out now: the first view of the table, with no lock selected yet, gets its room.
    QTimer::singleShot(0, this, [this] {
        if (!selectedRowKey().isEmpty()) return;
        detailOpen_ = true;
        fitDetail(false);
    });
}

void LockInspectorView::fitDetail(bool lockShown) {
    // With no lock selected the pane is a title and a hint: the table gets the height it took
    // (half the window at 1280x720). The operator's split comes back with a selection.
    if (lockShown == detailOpen_) return;
    detailOpen_ = lockShown;
    const QList<int> sizes = splitter_->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (total <= 0) return;  // not laid out yet: the stretch factors decide
    if (!lockShown) {
        openSplit_ = sizes;
        const int compact = detail_->sizeHint().height();
        splitter_->setSizes({total - compact, compact});
    } else if (!openSplit_.isEmpty() && openSplit_.value(1) > detail_->sizeHint().height()) {
        splitter_->setSizes(openSplit_);
    } else {
        splitter_->setSizes({total * 3 / 5, total - total * 3 / 5});
    }
}

void LockInspectorView::selectKey(const QString& instance, const QString& key) {
    int row = model_->rowOf(instance, key);
    if (row < 0) return;
    QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    if (!index.isValid()) return;  // filtered out
    table_->selectRow(index.row());
    table_->scrollTo(index);
}

}  // namespace lockscope::ui

// LockInspectorView, the rows: the feed from the hub to the table, the selection kept or let
// go as rows leave, move and come back, the moving cells' repaint and the focus each watch
// is told.
#include <QSignalBlocker>
#include <QTableView>
#include <algorithm>

#include "models/lock_filter_proxy.h"
#include "models/lock_row_feed.h"
#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "session/row_feed_wiring.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"

namespace lockscope::ui {

void LockInspectorView::connectFeed() {
    // Hub → feed → model: the feed applies what the watches report; the view follows the
    // selection around the rows it takes away, moves and brings back. Connected before the
    // view's own handlers of the same hub signals, so those see the feed's work done.
    feedRowsFrom(hub_, *feed_);
    connect(feed_, &LockRowFeed::rowsLeaving, this, &LockInspectorView::onRowsLeaving);
    connect(feed_, &LockRowFeed::instanceLeaving, this, &LockInspectorView::onInstanceLeaving);
    connect(feed_, &LockRowFeed::rowsMoving, this, &LockInspectorView::onRowsMoving);
    connect(feed_, &LockRowFeed::rowsApplied, this, &LockInspectorView::onRowsApplied);
}

void LockInspectorView::onRowsLeaving(const QString& instance, const QStringList& keys) {
    const RowKey selected = selectedRowKey();
    if (selected.instance == instance && keys.contains(selected.key)) letSelectedGo(selected);
}

void LockInspectorView::onInstanceLeaving(const QString& instance) {
    const RowKey selected = selectedRowKey();
    if (!selected.isEmpty() && selected.instance == instance) letSelectedGo(selected);
}

void LockInspectorView::letSelectedGo(const RowKey& selected) {
    // The selected lock is gone (released, expired): never slide the selection onto
    // a neighbour, where the next Delete would release a lock nobody looked at.
    QSignalBlocker block(table_->selectionModel());
    table_->selectionModel()->clear();
    detail_->markVanished(feed_->history().track(selected));
    followKey_ = selected;  // if the same key is taken again, show the new lock
}

void LockInspectorView::onRowsMoving(const QString& from, const QString& to,
                                     const QStringList& keys) {
    const RowKey selected = selectedRowKey();
    if (selected.isEmpty() || selected.instance != from || !keys.contains(selected.key)) return;
    // The selection goes with the row (onRowsApplied selects it under its new node).
    QSignalBlocker block(table_->selectionModel());
    table_->selectionModel()->clear();
    followKey_ = LockTableModel::rowKey(to, selected.key);
}

void LockInspectorView::onRowsApplied(const QString& instance,
                                      std::span<const inspect::SharedLockRecord> changed,
                                      const QStringList& removed) {
    updateInstanceColumns();
    showCounts();
    if (!followKey_.isEmpty() && followKey_.instance == instance) {
        const QString key = followKey_.key;
        if (std::any_of(changed.begin(), changed.end(),
                        [&](const auto& r) { return QString::fromStdString(r->key) == key; })) {
            followKey_ = {};
            selectKey(instance, key);
            return;
        }
    }
    const RowKey selected = selectedRowKey();
    // The selected lock, or another key of its resource (its Redlock or digest group).
    const auto& shown = detail_->shown();
    bool touched =
        (selected.instance == instance && removed.contains(selected.key)) ||
        std::any_of(changed.begin(), changed.end(), [&](const auto& r) {
            return LockTableModel::rowKey(instance, QString::fromStdString(r->key)) == selected ||
                   (shown && r->resource() == shown->resource());
        });
    if (touched)
        showSelected();
    else if (!selected.isEmpty())
        detail_->refreshTrack(feed_->history().track(selected));
}

void LockInspectorView::repaintMovingCells() {
    // Between updates only the countdown, Seen for and Age cells move, and rows still fading
    // from a handoff: repainting the whole viewport ten times a second redrew every key,
    // holder and badge on screen too (issue 18: the window's CPU in steady state).
    QWidget* viewport = table_->viewport();
    const int height = viewport->height();
    QRegion dirty = std::exchange(fading_, QRegion());  // rows whose glow just ended, too
    for (int column : {LockTableModel::Remaining, LockTableModel::SeenFor, LockTableModel::Age})
        if (!table_->isColumnHidden(column))
            dirty += QRect(table_->columnViewportPosition(column), 0, table_->columnWidth(column),
                           height);
    const int first = table_->rowAt(0);
    if (first >= 0) {
        int last = table_->rowAt(height - 1);
        if (last < 0) last = proxy_->rowCount() - 1;
        for (int row = first; row <= last; ++row)
            if (proxy_->index(row, 0).data(LockTableModel::HighlightRole).toDouble() > 0)
                fading_ += QRect(0, table_->rowViewportPosition(row), viewport->width(),
                                 table_->rowHeight(row));
    }
    viewport->update(dirty + fading_);
}

void LockInspectorView::sendFocus() {
    std::map<QString, std::vector<std::string>> focus;
    auto add = [&](const QModelIndex& proxyIndex) {
        const auto* record = model_->recordAt(proxy_->mapToSource(proxyIndex).row());
        if (record) focus[QString::fromStdString(record->instanceName())].push_back(record->key);
    };
    for (const QModelIndex& selected : table_->selectionModel()->selectedRows()) add(selected);
    if (isVisible() && proxy_->rowCount() > 0) {
        int first = std::max(0, table_->rowAt(0));
        int last = table_->rowAt(table_->viewport()->height() - 1);
        if (last < 0) last = proxy_->rowCount() - 1;
        for (int row = first; row <= last && row - first < 500; ++row) add(proxy_->index(row, 0));
    }
    for (const QString& instance : model_->instanceNames()) focus[instance];  // none: clear it
    for (auto& [instance, keys] : focus) {
        auto& sent = sentFocus_[instance];
        if (sent == keys) continue;
        sent = keys;
        hub_.setFocus(instance, std::move(keys));
    }
}

}  // namespace lockscope::ui

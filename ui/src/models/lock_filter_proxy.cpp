#include "models/lock_filter_proxy.h"

#include <algorithm>

#include "models/lock_table_model.h"

namespace lockscope::ui {

LockFilterProxy::LockFilterProxy(QObject* parent) : QAbstractProxyModel(parent) {}

void LockFilterProxy::setSourceModel(QAbstractItemModel* model) {
    if (model == sourceModel()) return;
    beginResetModel();
    if (sourceModel()) disconnect(sourceModel(), nullptr, this, nullptr);
    QAbstractProxyModel::setSourceModel(model);
    locks_ = qobject_cast<LockTableModel*>(model);
    if (model) connectSource(model);
    refilter();
    endResetModel();
}

void LockFilterProxy::connectSource(QAbstractItemModel* model) {
    using M = QAbstractItemModel;
    connect(model, &M::rowsAboutToBeInserted, this,
            [this](const QModelIndex&, int first, int last) {
                sourceRowsAboutToBeInserted(first, last);
            });
    connect(model, &M::rowsInserted, this,
            [this](const QModelIndex&, int first, int last) { sourceRowsInserted(first, last); });
    connect(model, &M::rowsAboutToBeRemoved, this, [this](const QModelIndex&, int first, int last) {
        sourceRowsAboutToBeRemoved(first, last);
    });
    connect(model, &M::rowsRemoved, this,
            [this](const QModelIndex&, int first, int last) { sourceRowsRemoved(first, last); });
    // A move is a reordering: announced as one.
    connect(model, &M::rowsAboutToBeMoved, this, [this] { sourceLayoutAboutToBeChanged(); });
    connect(model, &M::rowsMoved, this, [this] { sourceLayoutChanged(); });
    connect(model, &M::layoutAboutToBeChanged, this, [this] { sourceLayoutAboutToBeChanged(); });
    connect(model, &M::layoutChanged, this, [this] { sourceLayoutChanged(); });
    connect(model, &M::dataChanged, this, &LockFilterProxy::sourceDataChanged);
    connect(model, &M::modelAboutToBeReset, this, [this] { beginResetModel(); });
    connect(model, &M::modelReset, this, [this] {
        refilter();
        endResetModel();
    });
    // The table's columns are fixed; any other source's column changes reset the proxy.
    for (auto about : {&M::columnsAboutToBeInserted, &M::columnsAboutToBeRemoved})
        connect(model, about, this, [this] { beginResetModel(); });
    connect(model, &M::columnsAboutToBeMoved, this, [this] { beginResetModel(); });
    for (auto done : {&M::columnsInserted, &M::columnsRemoved})
        connect(model, done, this, [this] { endResetModel(); });
    connect(model, &M::columnsMoved, this, [this] { endResetModel(); });
    connect(model, &M::headerDataChanged, this,
            [this](Qt::Orientation orientation, int first, int last) {
                if (orientation == Qt::Vertical && filtering()) {
                    if (rowCount() > 0) emit headerDataChanged(orientation, 0, rowCount() - 1);
                    return;
                }
                emit headerDataChanged(orientation, first, last);
            });
}

void LockFilterProxy::setFilterText(const QString& text) {
    std::string filter = text.trimmed().toLower().toStdString();
    if (filter == filter_) return;
    beginResetModel();
    filter_ = std::move(filter);
    refilter();
    endResetModel();
}

void LockFilterProxy::setOrphansOnly(bool on) {
    if (on == orphansOnly_) return;
    beginResetModel();
    orphansOnly_ = on;
    refilter();
    endResetModel();
}

void LockFilterProxy::setScope(const RowScope& scope) {
    if (scope == scope_) return;
    beginResetModel();
    scope_ = scope;
    refilter();
    endResetModel();
}

void LockFilterProxy::sort(int column, Qt::SortOrder order) {
    if (sourceModel()) sourceModel()->sort(column, order);
}

bool LockFilterProxy::accepts(int sourceRow) const {
    if (!filtering()) return true;
    if (orphansOnly_ &&
        !sourceModel()->index(sourceRow, 0).data(LockTableModel::OrphanRole).toBool())
        return false;
    if (locks_ && !locks_->rowInScope(sourceRow, scope_)) return false;
    if (filter_.empty()) return true;
    if (locks_) return locks_->rowMatches(sourceRow, filter_);
    const QString needle = QString::fromStdString(filter_);
    for (int column = 0; column < sourceModel()->columnCount(); ++column)
        if (sourceModel()
                ->index(sourceRow, column)
                .data()
                .toString()
                .contains(needle, Qt::CaseInsensitive))
            return true;
    return false;
}

void LockFilterProxy::refilter() {
    accepted_.clear();
    if (!filtering() || !sourceModel()) return;
    const int rows = sourceModel()->rowCount();
    for (int row = 0; row < rows; ++row)
        if (accepts(row)) accepted_.push_back(row);
}

std::pair<int, int> LockFilterProxy::acceptedBetween(int sourceFirst, int sourceLast) const {
    auto from = std::lower_bound(accepted_.begin(), accepted_.end(), sourceFirst);
    auto to = std::upper_bound(from, accepted_.end(), sourceLast);
    return {int(from - accepted_.begin()), int(to - accepted_.begin())};
}

QModelIndex LockFilterProxy::mapToSource(const QModelIndex& proxyIndex) const {
    if (!proxyIndex.isValid() || !sourceModel() || proxyIndex.row() >= rowCount()) return {};
    const int row = filtering() ? accepted_[std::size_t(proxyIndex.row())] : proxyIndex.row();
    return sourceModel()->index(row, proxyIndex.column());
}

QModelIndex LockFilterProxy::mapFromSource(const QModelIndex& sourceIndex) const {
    if (!sourceIndex.isValid() || sourceIndex.model() != sourceModel()) return {};
    if (!filtering()) return createIndex(sourceIndex.row(), sourceIndex.column());
    auto at = std::lower_bound(accepted_.begin(), accepted_.end(), sourceIndex.row());
    if (at == accepted_.end() || *at != sourceIndex.row()) return {};  // filtered out
    return createIndex(int(at - accepted_.begin()), sourceIndex.column());
}

QModelIndex LockFilterProxy::index(int row, int column, const QModelIndex& parent) const {
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex LockFilterProxy::parent(const QModelIndex&) const {
    return {};  // a flat table
}

QModelIndex LockFilterProxy::sibling(int row, int column, const QModelIndex&) const {
    return index(row, column);
}

int LockFilterProxy::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !sourceModel()) return 0;
    return filtering() ? int(accepted_.size()) : sourceModel()->rowCount();
}

int LockFilterProxy::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

bool LockFilterProxy::hasChildren(const QModelIndex& parent) const {
    return !parent.isValid() && rowCount() > 0;
}

void LockFilterProxy::sourceRowsAboutToBeInserted(int first, int last) {
    if (!filtering()) beginInsertRows({}, first, last);
}

void LockFilterProxy::sourceRowsInserted(int first, int last) {
    if (!filtering()) {
        endInsertRows();
        return;
    }
    const int count = last - first + 1;
    auto at = std::lower_bound(accepted_.begin(), accepted_.end(), first);
    for (auto shifted = at; shifted != accepted_.end(); ++shifted) *shifted += count;
    std::vector<int> fresh;
    for (int row = first; row <= last; ++row)
        if (accepts(row)) fresh.push_back(row);
    if (fresh.empty()) return;
    // New source rows are contiguous, so the ones that match are too, in the proxy.
    const int position = int(at - accepted_.begin());
    beginInsertRows({}, position, position + int(fresh.size()) - 1);
    accepted_.insert(accepted_.begin() + position, fresh.begin(), fresh.end());
    endInsertRows();
}

void LockFilterProxy::sourceRowsAboutToBeRemoved(int first, int last) {
    if (!filtering()) {
        beginRemoveRows({}, first, last);
        return;
    }
    removing_ = acceptedBetween(first, last);
    if (removing_.first < removing_.second)
        beginRemoveRows({}, removing_.first, removing_.second - 1);
}

void LockFilterProxy::sourceRowsRemoved(int first, int last) {
    if (!filtering()) {
        endRemoveRows();
        return;
    }
    const auto [from, to] = std::exchange(removing_, {0, 0});
    accepted_.erase(accepted_.begin() + from, accepted_.begin() + to);
    const int count = last - first + 1;
    for (auto shifted = accepted_.begin() + from; shifted != accepted_.end(); ++shifted)
        *shifted -= count;
    if (from < to) endRemoveRows();
}

void LockFilterProxy::sourceLayoutAboutToBeChanged() {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // The few persistent indexes (selection, current row) ride on the source's own, which
    // the source moves with its rows.
    layoutProxy_ = persistentIndexList();
    layoutSource_.clear();
    layoutSource_.reserve(layoutProxy_.size());
    for (const QModelIndex& proxyIndex : std::as_const(layoutProxy_))
        layoutSource_.append(QPersistentModelIndex(mapToSource(proxyIndex)));
}

void LockFilterProxy::sourceLayoutChanged() {
    // A reordering moves rows, it does not change which ones match.
    if (filtering()) refilter();
    QModelIndexList after;
    after.reserve(layoutSource_.size());
    for (const QPersistentModelIndex& sourceIndex : std::as_const(layoutSource_))
        after.append(mapFromSource(sourceIndex));
    changePersistentIndexList(layoutProxy_, after);
    layoutProxy_.clear();
    layoutSource_.clear();
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void LockFilterProxy::sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                                        const QList<int>& roles) {
    if (!topLeft.isValid() || !bottomRight.isValid()) return;
    if (!filtering()) {
        emit dataChanged(index(topLeft.row(), topLeft.column()),
                         index(bottomRight.row(), bottomRight.column()), roles);
        return;
    }
    placeFlippedRows(topLeft.row(), bottomRight.row());
    const auto [from, to] = acceptedBetween(topLeft.row(), bottomRight.row());
    if (from < to)
        emit dataChanged(index(from, topLeft.column()), index(to - 1, bottomRight.column()), roles);
}

void LockFilterProxy::placeFlippedRows(int sourceFirst, int sourceLast) {
    // A changed row may start or stop matching: removed, then inserted, a run of
    // neighbouring proxy rows per signal.
    std::vector<int> gone, come;
    for (int row = sourceFirst; row <= sourceLast; ++row) {
        const bool shown = std::binary_search(accepted_.begin(), accepted_.end(), row);
        const bool matches = accepts(row);
        if (shown && !matches) gone.push_back(row);
        if (!shown && matches) come.push_back(row);
    }
    auto positionOf = [this](int row) {
        return int(std::lower_bound(accepted_.begin(), accepted_.end(), row) - accepted_.begin());
    };
    for (auto it = gone.rbegin(); it != gone.rend();) {
        const int last = positionOf(*it);
        int first = last;
        for (++it; it != gone.rend() && positionOf(*it) == first - 1; ++it) --first;
        beginRemoveRows({}, first, last);
        accepted_.erase(accepted_.begin() + first, accepted_.begin() + last + 1);
        endRemoveRows();
    }
    for (std::size_t i = 0; i < come.size();) {
        auto at = std::lower_bound(accepted_.begin(), accepted_.end(), come[i]);
        std::size_t j = i + 1;
        while (j < come.size() && (at == accepted_.end() || come[j] < *at)) ++j;
        const int position = int(at - accepted_.begin());
        beginInsertRows({}, position, position + int(j - i) - 1);
        accepted_.insert(at, come.begin() + std::ptrdiff_t(i), come.begin() + std::ptrdiff_t(j));
        endInsertRows();
        i = j;
    }
}

}  // namespace lockscope::ui

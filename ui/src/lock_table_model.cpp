#include "lock_table_model.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>
#include <algorithm>

#include "finding_text.h"
#include "lock_row_compare.h"
#include "lockscope/inspect/doctor.h"

namespace lockscope::ui {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

constexpr auto kHighlightFor = std::chrono::milliseconds(1500);

QString elideMiddle(const QString& s, int keep) {
    if (s.size() <= keep) return s;
    return s.left(keep / 2) + QStringLiteral("…") + s.right(keep - keep / 2 - 1);
}

QString holderText(const LockTableModel::Record& r) {
    if (!r.fields.empty()) {
        QStringList parts;
        for (const auto& f : r.fields)
            parts << QString::fromStdString(f.field) + QStringLiteral(" → ") +
                         QString::fromStdString(f.value);
        return parts.join(QStringLiteral(", "));
    }
    return QString::fromUtf8(r.token.data(), qsizetype(r.token.size()));
}

}  // namespace

LockTableModel::LockTableModel(QObject* parent) : QAbstractTableModel(parent) {
    // ~10 repaints a second is smooth for a countdown shown to 0.1 s.
    ticker_.setInterval(100);
    connect(&ticker_, &QTimer::timeout, this, &LockTableModel::tick);
    ticker_.start();
}

int LockTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : order_.size();
}
int LockTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString LockTableModel::formatDuration(std::int64_t ms) {
    if (ms < 0) return tr("no TTL");
    if (ms < 10'000) return QString::number(double(ms) / 1000.0, 'f', 1) + tr(" s");
    std::int64_t s = ms / 1000;
    if (s < 120) return QString::number(s) + tr(" s");
    if (s < 7200) return tr("%1 min %2 s").arg(s / 60).arg(s % 60);
    if (s < 172800) return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
    return tr("%1 days").arg(s / 86400);
}

QVariant LockTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[ColumnCount] = {QT_TR_NOOP("Instance"), QT_TR_NOOP("Key"),
                                             QT_TR_NOOP("Resource"), QT_TR_NOOP("Kind"),
                                             QT_TR_NOOP("Holder"),   QT_TR_NOOP("Remaining TTL"),
                                             QT_TR_NOOP("Fence"),    QT_TR_NOOP("Held for"),
                                             QT_TR_NOOP("Renewals"), QT_TR_NOOP("Findings")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QVariant LockTableModel::display(const Row& row, int column) const {
    const Record& r = row.record;
    switch (column) {
        case Instance:
            return QString::fromStdString(r.instanceName());
        case Key:
            return QString::fromUtf8(r.key.data(), qsizetype(r.key.size()));
        case Resource:
            return QString::fromUtf8(r.resource().data(), qsizetype(r.resource().size()));
        case Kind:
            return QString::fromLatin1(inspect::toString(r.kind));
        case Holder:
            return elideMiddle(holderText(r), 36);
        case Remaining:
            return formatDuration(r.remainingAt(now_()));
        case Fence:
            return r.fence ? QVariant(qlonglong(*r.fence)) : QVariant(QStringLiteral("—"));
        case HeldFor:
            return formatDuration(duration_cast<milliseconds>(now_() - r.lastChange).count());
        case Renewals:
            return int(r.renewals);
        case Findings:
            return findingLabels(r.findings).join(QStringLiteral("  "));
    }
    return {};
}

QVariant LockTableModel::sortValue(const Row& row, int column) const {
    const Record& r = row.record;
    switch (column) {
        case Remaining: {
            auto left = r.remainingAt(now_());
            return qlonglong(left < 0 ? std::numeric_limits<qint64>::max()
                                      : left);  // no TTL sorts last
        }
        case Fence:
            return qlonglong(r.fence.value_or(-1));
        case HeldFor:
            return qlonglong(duration_cast<milliseconds>(now_() - r.lastChange).count());
        case Renewals:
            return int(r.renewals);
        case Findings:
            return int(findingLabels(r.findings).size());
        default:
            return display(row, column);
    }
}

QVariant LockTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = rowAt(index.row());
    const Record& r = row.record;
    switch (role) {
        case Qt::DisplayRole:
            return display(row, index.column());
        case Qt::EditRole:
            return sortValue(row, index.column());
        case Qt::ToolTipRole:
            if (index.column() == Holder) return holderText(r);
            if (index.column() == Kind) return QString::fromLatin1(inspect::describe(r.kind));
            if (index.column() == Findings) return findingTooltips(r.findings);
            return display(row, index.column());
        case Qt::FontRole:
            if (index.column() == Holder || index.column() == Key)
                return QFontDatabase::systemFont(QFontDatabase::FixedFont);
            return {};
        case Qt::TextAlignmentRole:
            if (index.column() == Fence || index.column() == Renewals)
                return int(Qt::AlignRight | Qt::AlignVCenter);
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        case RemainingMsRole:
            return qlonglong(r.remainingAt(now_()));
        case TtlFractionRole: {
            auto left = r.remainingAt(now_());
            if (left < 0 || row.largestPttl <= 0) return 0.0;
            return std::clamp(double(left) / double(row.largestPttl), 0.0, 1.0);
        }
        case HighlightRole: {
            auto since = now_() - row.highlightedAt;
            if (row.highlightedAt == Clock::time_point{} || since > kHighlightFor) return 0.0;
            return 1.0 - double(duration_cast<milliseconds>(since).count()) /
                             double(kHighlightFor.count());
        }
        case FindingsRole:
            return findingIds(r.findings);
        case FullTokenRole:
            return holderText(r);
        case RowKeyRole:
            return row.rowKey;
    }
    return {};
}

void LockTableModel::apply(const QString& instance, const QVector<Record>& records, bool complete) {
    instances_.insert(instance);
    QSet<QString> seen;
    QVector<Record> added;
    QHash<QString, qsizetype> addedAt;  // a key twice in one update is one new row
    std::vector<int> changed, moved;
    for (const Record& rec : records) {
        QString key =
            rowKey(instance, QString::fromUtf8(rec.key.data(), qsizetype(rec.key.size())));
        if (complete) seen.insert(key);
        auto found = index_.find(key);
        if (found == index_.end()) {
            auto at = addedAt.constFind(key);
            if (at != addedAt.constEnd())
                added[*at] = rec;
            else
                addedAt.insert(key, added.size()), added.append(rec);
            continue;
        }
        const int id = found->second;
        Row& row = slots_[std::size_t(id)];
        bool handedOff = !row.record.sameHolder(rec);
        if (sortColumn_ >= 0 && compareLockRecords(row.record, rec, sortColumn_) != 0)
            moved.push_back(id);
        row.record = rec;
        if (numericSort_) keys_[std::size_t(id)].value = numericSortKey(rec, sortColumn_);
        row.largestPttl = handedOff ? rec.pttlMs : std::max(row.largestPttl, rec.pttlMs);
        if (handedOff) {
            row.highlightedAt = now_();
            emit handoff(instance, QString::fromStdString(rec.key));
        }
        changed.push_back(order_.positionOf(id));
    }
    emitChanged(std::move(changed));
    insertRows(instance, added, moved);
    keepSorted(moved);
    if (!complete) return;
    std::vector<int> gone;
    for (int p = 0; p < order_.size(); ++p) {
        const Row& row = rowAt(p);
        if (row.rowKey.startsWith(instance + '\n') && !seen.contains(row.rowKey))
            gone.push_back(order_.idAt(p));
    }
    removeIds(gone);
}

void LockTableModel::insertRows(const QString& instance, const QVector<Record>& records,
                                std::vector<int>& moved) {
    if (records.isEmpty()) return;
    const int first = order_.size();
    std::vector<int> ids;
    ids.reserve(std::size_t(records.size()));
    beginInsertRows({}, first, first + int(records.size()) - 1);
    for (const Record& rec : records) {
        QString key =
            rowKey(instance, QString::fromUtf8(rec.key.data(), qsizetype(rec.key.size())));
        int id = allocate(Row{rec, key, rec.pttlMs, {}});
        keys_[std::size_t(id)] = {numericSort_ ? numericSortKey(rec, sortColumn_) : 0, ++arrivals_};
        index_.emplace(key, id);
        ids.push_back(id);
    }
    order_.append(ids);
    endInsertRows();
    // New rows arrive at the end, one contiguous insert; keepSorted() moves them in place.
    if (sortColumn_ >= 0) moved.insert(moved.end(), ids.begin(), ids.end());
}

void LockTableModel::reserve(int rows) {
    if (rows <= int(index_.size())) return;
    index_.reserve(std::size_t(rows));
    keys_.reserve(std::size_t(rows));
}

int LockTableModel::allocate(Row row) {
    if (freeSlots_.empty()) {
        slots_.push_back(std::move(row));
        keys_.emplace_back();
        return int(slots_.size()) - 1;
    }
    int id = freeSlots_.back();
    freeSlots_.pop_back();
    slots_[std::size_t(id)] = std::move(row);
    return id;
}

void LockTableModel::keepSorted(const std::vector<int>& moved) {
    if (sortColumn_ < 0 || moved.empty()) return;
    auto lessById = [this](int l, int r) { return less(l, r); };
    if (order_.inOrder(moved, lessById)) return;
    std::vector<int> unique = moved;
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    relayout([&] { order_.resort(unique, lessById); });
}

void LockTableModel::sort(int column, Qt::SortOrder order) {
    sortColumn_ = column >= 0 && column < ColumnCount ? column : -1;
    sortOrder_ = order;
    numericSort_ = isNumericColumn(sortColumn_);
    if (sortColumn_ < 0) return;  // arrival order from here on; the rows stay where they are
    if (numericSort_)
        for (int p = 0; p < order_.size(); ++p) {
            const auto id = std::size_t(order_.idAt(p));
            keys_[id].value = numericSortKey(slots_[id].record, sortColumn_);
        }
    relayout([this] { order_.sortAll([this](int l, int r) { return less(l, r); }); });
}

bool LockTableModel::less(int leftId, int rightId) const {
    const SortKey& a = keys_[std::size_t(leftId)];
    const SortKey& b = keys_[std::size_t(rightId)];
    int c = numericSort_ ? (a.value > b.value) - (a.value < b.value)
                         : compareLockRecords(slots_[std::size_t(leftId)].record,
                                              slots_[std::size_t(rightId)].record, sortColumn_);
    if (sortOrder_ == Qt::DescendingOrder) c = -c;
    return c != 0 ? c < 0 : a.arrival < b.arrival;
}

void LockTableModel::relayout(const std::function<void()>& reorder) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> ids;
    ids.reserve(std::size_t(before.size()));
    for (const QModelIndex& i : before) ids.push_back(order_.idAt(i.row()));
    reorder();
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i)
        after.append(index(order_.positionOf(ids[std::size_t(i)]), before[i].column()));
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void LockTableModel::emitChanged(std::vector<int> positions) {
    if (positions.empty()) return;
    std::sort(positions.begin(), positions.end());
    // One signal per run of neighbouring rows; past a few hundred runs one signal over the
    // span costs a view less than the signals would.
    constexpr std::size_t kMaxRuns = 256;
    std::vector<std::pair<int, int>> runs;
    for (int p : positions) {
        if (!runs.empty() && p <= runs.back().second + 1)
            runs.back().second = std::max(runs.back().second, p);
        else
            runs.emplace_back(p, p);
        if (runs.size() > kMaxRuns) {
            emit dataChanged(index(positions.front(), 0), index(positions.back(), ColumnCount - 1));
            return;
        }
    }
    for (auto [first, last] : runs) emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

void LockTableModel::removeKey(const QString& instance, const QString& key) {
    removeKeys(instance, {key});
}

void LockTableModel::removeKeys(const QString& instance, const QStringList& keys) {
    std::vector<int> ids;
    for (const QString& key : keys) {
        auto it = index_.find(rowKey(instance, key));
        if (it != index_.end()) ids.push_back(it->second);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    removeIds(ids);
}

void LockTableModel::removeInstance(const QString& instance) {
    instances_.remove(instance);
    std::vector<int> ids;
    for (int p = 0; p < order_.size(); ++p)
        if (rowAt(p).rowKey.startsWith(instance + '\n')) ids.push_back(order_.idAt(p));
    removeIds(ids);
}

void LockTableModel::removeIds(const std::vector<int>& ids) {
    if (ids.empty()) return;
    const int count = int(ids.size());
    // Scattered rows are first gathered at the tail, so a view sees one removal, not one
    // per row (each costs it O(rows)).
    if (!order_.atTail(ids)) relayout([&] { order_.moveToTail(ids); });
    const int first = order_.size() - count;
    QVector<QPair<QString, QString>> removed;
    removed.reserve(count);
    beginRemoveRows({}, first, order_.size() - 1);
    for (int id : ids) {
        Row& row = slots_[std::size_t(id)];
        removed.append({row.rowKey.section('\n', 0, 0), row.rowKey.section('\n', 1)});
        index_.erase(row.rowKey);
        row = Row{};
        freeSlots_.push_back(id);
    }
    order_.popTail(count);
    endRemoveRows();
    for (const auto& [instance, key] : removed) emit vanished(instance, key);
}

std::vector<LockTableModel::Record> LockTableModel::recordsOfResource(
    std::string_view resource) const {
    std::vector<Record> out;
    for (int p = 0; p < order_.size(); ++p) {
        const Record& r = rowAt(p).record;
        if (r.resource() == resource && r.kind != inspect::LockKind::NotALock) out.push_back(r);
    }
    return out;
}

const LockTableModel::Record* LockTableModel::recordAt(int row) const {
    return row >= 0 && row < order_.size() ? &rowAt(row).record : nullptr;
}

int LockTableModel::rowOf(const QString& instance, const QString& key) const {
    auto it = index_.find(rowKey(instance, key));
    return it == index_.end() ? -1 : order_.positionOf(it->second);
}

bool LockTableModel::rowMatches(int row, const std::string& lowerText) const {
    if (lowerText.empty()) return true;
    auto contains = [&](std::string_view haystack) {
        auto lowerEquals = [](char a, char b) {
            return (a >= 'A' && a <= 'Z' ? char(a - 'A' + 'a') : a) == b;
        };
        return std::search(haystack.begin(), haystack.end(), lowerText.begin(), lowerText.end(),
                           lowerEquals) != haystack.end();
    };
    const Record& r = rowAt(row).record;
    if (contains(r.instanceName()) || contains(r.key) || contains(inspect::toString(r.kind)) ||
        contains(r.token))
        return true;
    for (const auto& f : r.fields)
        if (contains(f.field) || contains(f.value)) return true;
    for (const std::string& rule : inspect::ruleNames(r.findings))
        if (contains(rule)) return true;
    return false;
}

void LockTableModel::tick() {
    // No dataChanged here: every row counts down at the same rate, so the order by
    // remaining TTL cannot change between polls and a proxy need not re-sort 10k rows ten
    // times a second. Views just repaint what is visible.
    if (order_.size() > 0) emit countdownTick();
}

}  // namespace lockscope::ui

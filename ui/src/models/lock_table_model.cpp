#include "models/lock_table_model.h"

#include "lockscope/duration_text.h"
#include "lockscope/inspect/formats/holder_facts.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>
#include <algorithm>

#include "lockscope/inspect/formats/lock_families.h"
#include "lockscope/inspect/lock_age.h"
#include "models/finding_text.h"
#include "models/liveness_text.h"

namespace lockscope::ui {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

constexpr auto kHighlightFor = std::chrono::milliseconds(1500);

QString elideMiddle(const QString& s, int keep) {
    if (s.size() <= keep) return s;
    return s.left(keep / 2) + QStringLiteral("…") + s.right(keep - keep / 2 - 1);
}

QString ageText(const inspect::LockAge& age) {
    switch (age.source) {
        case inspect::AgeSource::TokenTimestamp:
            return LockTableModel::formatDuration(age.ms);
        case inspect::AgeSource::AcquireSeen:
            return QStringLiteral("≈ ") + LockTableModel::formatDuration(age.ms);
        case inspect::AgeSource::LeaseMinusTtl:
            return QStringLiteral("≥ ") + LockTableModel::formatDuration(age.ms);
        case inspect::AgeSource::Unknown:
            break;
    }
    return LockTableModel::tr("unknown");
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

LockTableModel::LockTableModel(QObject* parent)
    : QAbstractTableModel(parent),
      index_([this](int id, std::string_view instance, std::string_view key) {
          const Record& r = *slots_[std::size_t(id)].record;
          return r.key == key && r.instanceName() == instance;
      }) {
    // ~10 repaints a second is smooth for a countdown shown to 0.1 s.
    ticker_.setInterval(100);
    connect(&ticker_, &QTimer::timeout, this, &LockTableModel::tick);
    resortTimer_.setSingleShot(true);
    resortTimer_.setInterval(0);
    connect(&resortTimer_, &QTimer::timeout, this, &LockTableModel::resortNow);
    ticker_.start();
}

int LockTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : order_.size();
}
int LockTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString LockTableModel::formatDuration(std::int64_t ms) {
    return ms < 0 ? tr("no TTL") : QString::fromStdString(lockscope::formatDuration(ms));
}

QString LockTableModel::ageTooltip(const Record& r) const {
    inspect::LockAge age = inspect::estimateAge(r, now_(), wallNow_());
    switch (age.source) {
        case inspect::AgeSource::TokenTimestamp:
            return tr("From the acquire time the holder's token carries (%1)")
                .arg(QString::fromLatin1(inspect::toString(r.kind)));
        case inspect::AgeSource::AcquireSeen:
            return tr("LockScope saw this holder take the lock");
        case inspect::AgeSource::LeaseMinusTtl:
            return tr("At least: the lease seen on this key (%1) minus the TTL left when this "
                      "holder was first seen (%2), plus the time since")
                .arg(formatDuration(r.leasePttlMs), formatDuration(r.firstPttlMs));
        case inspect::AgeSource::Unknown:
            break;
    }
    return tr(
        "Unknown: the token carries no time, the acquire was not seen and no longer "
        "lease was seen. It is at least the Seen for time.");
}

QVariant LockTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[ColumnCount] = {
        QT_TR_NOOP("Instance"), QT_TR_NOOP("Key"),      QT_TR_NOOP("Resource"),
        QT_TR_NOOP("Kind"),     QT_TR_NOOP("Holder"),   QT_TR_NOOP("Remaining TTL"),
        QT_TR_NOOP("Fence"),    QT_TR_NOOP("Seen for"), QT_TR_NOOP("Age"),
        QT_TR_NOOP("Renewals"), QT_TR_NOOP("Findings"), QT_TR_NOOP("Node"),
        QT_TR_NOOP("Alive?")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

void LockTableModel::setInstanceStale(const QString& instance, bool stale) {
    const std::string name = instance.toStdString();
    bool was = staleSince_.count(name) > 0;
    if (stale == was) return;
    if (stale)
        staleSince_.emplace(name, now_());
    else
        staleSince_.erase(name);
    // Every row of the instance changes look; rows of other instances are untouched, but
    // one dataChanged over the table is cheaper than finding the instance's ranges.
    if (order_.size() > 0) emit dataChanged(index(0, 0), index(order_.size() - 1, ColumnCount - 1));
}

void LockTableModel::setNodeDescription(const QString& instance, const QString& description) {
    QString& known = nodeDescriptions_[instance.toStdString()];
    if (known == description) return;
    known = description;
    if (order_.size() > 0) emit dataChanged(index(0, Node), index(order_.size() - 1, Node));
}

void LockTableModel::setInstanceName(const QString& instance, const QString& name) {
    QString& known = instanceNames_[instance.toStdString()];
    if (known == name) return;
    known = name;
    lowerNames_[instance.toStdString()] = name.toLower().toStdString();
    if (order_.size() > 0) emit dataChanged(index(0, Instance), index(order_.size() - 1, Instance));
}

void LockTableModel::setInstanceScope(const QString& instance, const QString& connectionId,
                                      const QString& group) {
    if (!scopes_.set(instance.toStdString(), connectionId, group) || order_.size() == 0) return;
    emit dataChanged(index(0, Instance), index(order_.size() - 1, Instance));
}

bool LockTableModel::rowInScope(int row, const RowScope& scope) const {
    return scope.isAll() || scopes_.inScope(rowAt(row).record->instanceName(), scope);
}

bool LockTableModel::isStale(const Record& record) const {
    if (!heldRemovals_.empty()) {
        // A row gone while the order is held: shown until the hold ends, never acted on.
        const int id = idOf(record.instanceName(), record.key);
        if (id >= 0 && slots_[std::size_t(id)].goneWhileHeld) return true;
    }
    return !staleSince_.empty() && staleSince_.count(record.instanceName()) > 0;
}

QVariant LockTableModel::display(const Row& row, int column) const {
    const Record& r = *row.record;
    if (column == Remaining && !staleSince_.empty()) {
        auto it = staleSince_.find(r.instanceName());
        if (it != staleSince_.end())
            return tr("last seen %1 ago")
                .arg(formatDuration(duration_cast<milliseconds>(now_() - it->second).count()));
    }
    switch (column) {
        case Instance: {
            auto named = instanceNames_.find(r.instanceName());
            if (named != instanceNames_.end() && !named->second.isEmpty()) return named->second;
            return QString::fromStdString(r.instanceName());
        }
        case Key:
            return QString::fromUtf8(r.key.data(), qsizetype(r.key.size()));
        case Resource: {
            // A key that belongs to its resource's lock (a sidekiq digest's lists and info,
            // Redisson's queue and fence token) is marked as part of it; sorted by resource,
            // it shows right under its lock.
            auto name = QString::fromUtf8(r.resource().data(), qsizetype(r.resource().size()));
            return inspect::isLockCompanion(r) ? QStringLiteral("\u21b3 ") + name : name;
        }
        case Kind:
            return QString::fromLatin1(inspect::toString(r.kind));
        case Holder: {
            // Who holds it, as its library's format tells (time, host, client, thread, jobs);
            // the raw value stays in the tooltip and the detail pane.
            auto facts = inspect::decodeHolder(r);
            if (facts.empty()) return elideMiddle(holderText(r), 36);
            return QString::fromStdString(inspect::describeHolder(facts));
        }
        case Remaining:
            return formatDuration(r.remainingAt(now_()));
        case Fence:
            return r.fence ? QVariant(qlonglong(*r.fence)) : QVariant(QStringLiteral("—"));
        case SeenFor:
            return formatDuration(duration_cast<milliseconds>(now_() - r.lastChange).count());
        case Age:
            return ageText(inspect::estimateAge(r, now_(), wallNow_()));
        case Renewals:
            return int(r.renewals);
        case Findings:
            return findingLabels(r.findings).join(QStringLiteral("  "));
        case Node: {
            auto described = nodeDescriptions_.find(r.instanceName());
            return described != nodeDescriptions_.end() ? described->second : QString();
        }
        case Alive:
            return livenessLabel(r, wallNow_());
    }
    return {};
}

QVariant LockTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = rowAt(index.row());
    const Record& r = *row.record;
    switch (role) {
        case Qt::DisplayRole:
            return display(row, index.column());
        case Qt::ToolTipRole:
            if (index.column() == Holder) {
                // What the holder's format says about it (time, host, client, thread...).
                auto facts = inspect::decodeHolder(r);
                if (facts.empty()) return holderText(r);
                return holderText(r) + QLatin1Char('\n') +
                       QString::fromStdString(inspect::describeHolder(facts));
            }
            if (index.column() == Kind) return QString::fromLatin1(inspect::describe(r.kind));
            if (index.column() == Findings) return findingTooltips(r.findings);
            if (index.column() == Age) return ageTooltip(r);
            if (index.column() == Alive) return livenessEvidence(r, wallNow_());
            if (index.column() == Instance) return QString::fromStdString(r.instanceName());
            if (index.column() == Resource && inspect::isLockCompanion(r))
                return tr("Part of the lock on %1: not a lock of its own, released with it. "
                          "Sort by Resource to see each lock with its keys.")
                    .arg(QString::fromUtf8(r.resource().data(), qsizetype(r.resource().size())));
            if (index.column() == SeenFor)
                return tr(
                    "How long LockScope has seen this holder (since it connected or the "
                    "holder changed): not the lock's age");
            return display(row, index.column());
        case Qt::ForegroundRole:
            if (isStale(r)) return QColor(Qt::gray);
            return {};
        case AgeSourceRole:
            return QString::fromLatin1(
                inspect::toString(inspect::estimateAge(r, now_(), wallNow_()).source));
        case StaleRole:
            return isStale(r);
        case OrphanRole:
            return isOrphan(r);
        case Qt::DecorationRole:
            if (index.column() == Alive) {
                if (auto colour = livenessColor(r)) return *colour;
            }
            return {};
        case Qt::FontRole:
            if (index.column() == Key ||
                (index.column() == Holder && inspect::decodeHolder(r).empty()))
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
            return QVariant::fromValue(
                rowKey(QString::fromStdString(r.instanceName()),
                       QString::fromUtf8(r.key.data(), qsizetype(r.key.size()))));
    }
    return {};
}

void LockTableModel::tick() {
    // No dataChanged here: every row counts down at the same rate, so the order by
    // remaining TTL cannot change between polls and a proxy need not re-sort 10k rows ten
    // times a second. Views just repaint what is visible.
    if (order_.size() > 0) emit countdownTick();
}

}  // namespace lockscope::ui

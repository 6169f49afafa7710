#include "widgets/lock_inspector_view.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "models/finding_text.h"
#include "models/lock_filter_proxy.h"
#include "models/lock_row_feed.h"
#include "models/lock_table_model.h"
#include "session/cluster_members.h"
#include "session/connection_hub.h"
#include "session/lock_companions.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view_columns.h"
#include "widgets/lock_inspector_view_scope.h"
#include "widgets/lock_table_delegate.h"
#include "widgets/pttl_plot.h"
#include "widgets/redlock_group_panel.h"

namespace lockscope::ui {
namespace {

QString legendHtml() {
    QStringList parts;
    for (auto s :
         {inspect::Severity::Critical, inspect::Severity::Warning, inspect::Severity::Info})
        parts << QStringLiteral("<span style=\"color:%1\">●</span> %2")
                     .arg(severityColor(s).name(), severityName(s));
    return parts.join(QStringLiteral("&nbsp;&nbsp;"));
}

}  // namespace

LockInspectorView::LockInspectorView(ConnectionHub& hub, QWidget* parent)
    : QWidget(parent),
      hub_(hub),
      model_(new LockTableModel(this)),
      proxy_(new LockFilterProxy(this)),
      feed_(new LockRowFeed(*model_, this)) {
    proxy_->setSourceModel(model_);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText(
        tr("Filter by key, resource, kind, holder token or finding (Ctrl+F)"));
    filter_->setClearButtonEnabled(true);
    progress_ = new QProgressBar;
    progress_->setRange(0, 0);
    progress_->setMinimumWidth(140);  // "123456 keys scanned" fits beside a long filter
    progress_->setMaximumWidth(160);
    progress_->setFormat(tr("scanning…"));
    progress_->hide();
    cancel_ = new QToolButton;
    cancel_->setIcon(QIcon(QStringLiteral(":/icons/cancel.svg")));
    cancel_->setToolTip(tr("Cancel the scan"));
    cancel_->hide();
    scope_ = new LockScopeBox(hub_, *model_);
    scope_->hide();  // shown with two connections or more
    orphansOnly_ = new QToolButton;
    orphansOnly_->setObjectName(QStringLiteral("orphansOnly"));
    orphansOnly_->setText(tr("Orphans"));
    orphansOnly_->setCheckable(true);
    orphansOnly_->setToolTip(
        tr("Show only the locks whose holder is gone (an orphan): the evidence is in the Alive? "
           "column's tooltip and the detail pane"));
    counts_ = new QLabel;
    counts_->setObjectName(QStringLiteral("lockCounts"));
    legend_ = new QLabel(legendHtml());
    legend_->setToolTip(
        tr("Finding badges are coloured by severity: a problem to act on, a "
           "warning worth a look, information that is not a fault"));

    table_ = new QTableView;
    table_->setModel(proxy_);
    table_->setItemDelegate(new LockTableDelegate(table_));
    table_->setSortingEnabled(true);
    table_->sortByColumn(LockTableModel::Remaining, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(QFontMetrics(font()).height() + 12);
    // Fixed row heights: with 100k+ rows the header must not measure or track each one.
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideMiddle);  // keys keep both ends; kinds keep their start
    columns_ = new LockTableColumns(*table_);

    // Rows hold still while the pointer is over the table and for a second after a press.
    table_->viewport()->installEventFilter(this);
    table_->viewport()->setAttribute(Qt::WA_Hover);
    holdRelease_.setSingleShot(true);
    connect(&holdRelease_, &QTimer::timeout, this, &LockInspectorView::updateOrderHold);

    detail_ = new LockDetailPane;
    splitter_ = new QSplitter(Qt::Vertical);
    splitter_->addWidget(table_);
    splitter_->addWidget(detail_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);

    auto* top = new QHBoxLayout;
    top->addWidget(filter_, 1);
    top->addWidget(scope_);
    top->addWidget(orphansOnly_);
    top->addWidget(legend_);
    top->addWidget(counts_);
    top->addWidget(progress_);
    top->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(splitter_, 1);

    connect(filter_, &QLineEdit::textChanged, this, &LockInspectorView::applyFilter);
    connect(scope_, &LockScopeBox::scopeChanged, this, &LockInspectorView::applyScope);
    connect(orphansOnly_, &QToolButton::toggled, this, [this](bool on) {
        const RowKey selected = selectedRowKey();
        proxy_->setOrphansOnly(on);
        if (!selected.isEmpty()) selectKey(selected.instance, selected.key);
        showCounts();
    });
    connect(cancel_, &QToolButton::clicked, &hub_, &ConnectionHub::cancelScans);
    connect(model_, &LockTableModel::countdownTick, this, &LockInspectorView::repaintMovingCells);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &LockInspectorView::onSelectionChanged);
    connectFeed();
    connect(&hub_, &ConnectionHub::failoverSeen, this,
            [this](const QString& instance, const QString&, const QString&, qint64 atMs) {
                failovers_[instance].push_back(double(atMs) / 1000.0);
                showSelected();
            });
    connect(&hub_, &ConnectionHub::instanceStateChanged, this,
            [this](const QString& instance, ConnectionState state) {
                bool down =
                    state == ConnectionState::Reconnecting || state == ConnectionState::Failed;
                nameInstance(instance);
                if (state == ConnectionState::Connecting) return;  // keep what it was
                if (!down) feed_->applyRemovalsNow(instance);      // the rescan's ghosts go first
                model_->setInstanceStale(instance, down);
                showSelected();
            });
    // The watch reads the rows on screen every interval and the rest within its budget:
    // tell it which rows those are, a few times a second (only when they changed).
    focusTimer_.setInterval(250);
    connect(&focusTimer_, &QTimer::timeout, this, &LockInspectorView::sendFocus);
    focusTimer_.start();
    connect(&hub_, &ConnectionHub::instanceClosed, this, [this](const QString&) {
        scope_->refresh();
        updateInstanceColumns();
        showSelected();
    });
    connect(&hub_, &ConnectionHub::clusterNodesFound, this,
            [this](const QString& profileId, const QStringList& nodeLines) {
                const ConnectionProfile* p = hub_.profile(profileId);
                if (!p) return;
                for (const auto& [instance, role] : nodeRolesByInstance(p->endpoint, nodeLines))
                    model_->setNodeDescription(instance, role);
                updateInstanceColumns();
            });
    connect(&hub_, &ConnectionHub::scanStarted, this, [this](const QString& instance) {
        ++scansRunning_;
        scans_.started(instance);
        progress_->setRange(0, 0);  // busy until the first batch says how far it got
        progress_->show();
        cancel_->show();
    });
    // Each instance's scan reports its own fraction (a cluster's primaries scan at once): the
    // bar shows them together, its tooltip each one.
    connect(&hub_, &ConnectionHub::scanProgress, this,
            [this](const QString& instance, double fraction, quint64 keysSeen) {
                scans_.progressed(instance, fraction, keysSeen);
                feed_->onScanProgress(scans_.fraction(), scans_.keysSeen());
                showScanProgress();
            });
    connect(&hub_, &ConnectionHub::scanFinished, this,
            [this](const QString& instance, bool cancelled, const QStringList& notes) {
                scansRunning_ = std::max(0, scansRunning_ - 1);
                scans_.finished(instance);
                if (scansRunning_ == 0)
                    scans_.clear();
                else
                    showScanProgress();
                if (!cancelled && model_->rowCount() == 0) {
                    counts_->setText(tr("No locks: try Discover (Ctrl+D)"));
                    counts_->setToolTip(
                        tr("No lock under the watched patterns. Discover scans "
                           "the whole keyspace for locks outside them."));
                }
                progress_->setVisible(scansRunning_ > 0);
                cancel_->setVisible(scansRunning_ > 0);
                if (cancelled)
                    emit statusMessage(tr("Scan of %1 cancelled").arg(instance), 5000);
                else if (!notes.isEmpty())
                    emit statusMessage(
                        instance + QStringLiteral(": ") + notes.join(QStringLiteral("; ")), 10000);
            });
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

void LockInspectorView::connectFeed() {
    // Hub → feed → model: the feed applies what the watches report; the view follows the
    // selection around the rows it takes away, moves and brings back. Connected before the
    // view's own handlers of the same hub signals, so those see the feed's work done.
    connect(&hub_, &ConnectionHub::locksChanged, feed_, &LockRowFeed::onLocksChanged);
    connect(&hub_, &ConnectionHub::serverEmptied, feed_, &LockRowFeed::onServerEmptied);
    connect(&hub_, &ConnectionHub::locksMoved, feed_, &LockRowFeed::onLocksMoved);
    connect(&hub_, &ConnectionHub::instanceClosed, feed_, &LockRowFeed::onInstanceClosed);
    connect(&hub_, &ConnectionHub::scanStarted, feed_, &LockRowFeed::onScanStarted);
    connect(&hub_, &ConnectionHub::scanFinished, feed_,
            [this](const QString&, bool cancelled) { feed_->onScanFinished(cancelled); });
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

void LockInspectorView::updateInstanceColumns() {
    // With one server the instance column repeats itself; the detail pane still names it.
    table_->setColumnHidden(LockTableModel::Instance, model_->instanceCount() < 2);
    table_->setColumnHidden(LockTableModel::Node,
                            model_->instanceCount() < 2 || !model_->hasNodeDescriptions());
    columns_->fit();  // the columns shown share the table's width
    // A connection's first rows make its instance known: the scope control lists it then.
    if (std::exchange(listedInstances_, model_->instanceCount()) != listedInstances_)
        scope_->refresh();
    // All, and at least a group or two connections to choose from.
    scope_->setVisible(scope_->count() > 2);
}

void LockInspectorView::showScanProgress() {
    progress_->setRange(0, 1000);
    progress_->setValue(int(scans_.fraction() * 1000));
    progress_->setFormat(tr("%1 keys scanned").arg(scans_.keysSeen()));
    progress_->setToolTip(scans_.tooltip([this](const QString& instance) {
        const ConnectionProfile* p = hub_.profileForInstance(instance);
        return p ? p->name : instance;
    }));
}

void LockInspectorView::applyFilter(const QString& text) {
    // The proxy resets on a new filter; the selected lock stays selected while it matches.
    const RowKey selected = selectedRowKey();
    proxy_->setFilterText(text);
    if (!selected.isEmpty()) selectKey(selected.instance, selected.key);
    showCounts();
}

void LockInspectorView::nameInstance(const QString& instance) {
    const ConnectionProfile* p = hub_.profileForInstance(instance);
    if (!p) return;
    model_->setInstanceName(instance, p->name);
    // A cluster's nodes are in the scope of the cluster's connection and its group.
    const ConnectionProfile* connection = p->clusterOf.isEmpty() ? p : hub_.profile(p->clusterOf);
    if (!connection) connection = p;
    model_->setInstanceScope(instance, connection->id, connection->group);
    scope_->refresh();  // a renamed or regrouped connection
    updateInstanceColumns();
}

void LockInspectorView::applyScope(const RowScope& scope) {
    // As a new filter: the selected lock stays selected while it is in the scope.
    const RowKey selected = selectedRowKey();
    proxy_->setScope(scope);
    if (!selected.isEmpty()) selectKey(selected.instance, selected.key);
    // Out of scope it is no longer selected: the detail pane and the lock actions let it go
    // too, so a Release never acts on a lock the table does not show.
    if (!selected.isEmpty() && selectedRowKey().isEmpty()) showSelected();
    showCounts();
}

void LockInspectorView::showCounts() {
    // With a filter, how many of the locks it shows: "2 locks" above one row read as a bug.
    const int all = model_->rowCount();
    if (filter_->text().trimmed().isEmpty() && !proxy_->orphansOnly() && proxy_->scope().isAll())
        counts_->setText(tr("%n lock(s)", nullptr, all));
    else
        counts_->setText(tr("%1 of %n lock(s)", nullptr, all).arg(proxy_->rowCount()));
}

void LockInspectorView::selectKey(const QString& instance, const QString& key) {
    int row = model_->rowOf(instance, key);
    if (row < 0) return;
    QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    if (!index.isValid()) return;  // filtered out
    table_->selectRow(index.row());
    table_->scrollTo(index);
}

bool LockInspectorView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_->viewport()) {
        switch (event->type()) {
            case QEvent::Enter:
            case QEvent::HoverEnter:
                pointerOverTable_ = true;
                updateOrderHold();
                break;
            case QEvent::Leave:
            case QEvent::HoverLeave:
                pointerOverTable_ = false;
                updateOrderHold();
                break;
            case QEvent::MouseButtonPress:
            case QEvent::MouseButtonDblClick:
                buttonDown_ = true;
                lastPress_.start();
                updateOrderHold();
                break;
            case QEvent::MouseButtonRelease:
                buttonDown_ = false;
                lastPress_.start();  // the second after the click holds too
                updateOrderHold();
                break;
            default:
                break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void LockInspectorView::updateOrderHold() {
    constexpr int kHoldAfterPressMs = 1000;
    const int sincePress = lastPress_.isValid() ? int(lastPress_.elapsed()) : kHoldAfterPressMs;
    // From the press to the release nothing moves, however long the button is held (a press
    // with no hover, as from a touch screen or a test, too).
    const bool hold = pointerOverTable_ || buttonDown_ || sincePress < kHoldAfterPressMs;
    model_->setOrderHeld(hold);
    if (hold && !pointerOverTable_ && !buttonDown_)
        holdRelease_.start(std::max(0, kHoldAfterPressMs - sincePress));
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

#include "widgets/lock_inspector_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
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
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view_columns.h"
#include "widgets/lock_inspector_view_scope.h"
#include "widgets/lock_table_delegate.h"

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
    tableViewport_ = table_->viewport();
    tableViewport_->installEventFilter(this);
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
    connectActions();
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

}  // namespace lockscope::ui

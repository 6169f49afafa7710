#include "widgets/discover_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <chrono>

#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/sentinel.h"
#include "support/pool_run.h"

namespace lockscope::ui {
namespace {

enum Column { Pattern, Keys, Kinds, Examples, Add, ColumnCount };

QString joined(const std::vector<std::string>& items) {
    QStringList out;
    for (const auto& s : items) out << QString::fromStdString(s);
    return out.join(QStringLiteral(", "));
}

// " on 3 nodes" for a cluster (every shard read), "" for one server.
QString nodesText(const inspect::DiscoverResult& r) {
    const std::size_t all = r.nodesScanned.size() + r.unscanned.size();
    if (all <= 1) return {};
    if (r.unscanned.empty()) return QObject::tr(" on %1 nodes").arg(all);
    return QObject::tr(" on %1 of %2 nodes").arg(r.nodesScanned.size()).arg(all);
}

// What was not read, in words: a partial scan must say what it could not see.
QString partialText(const inspect::DiscoverResult& r) {
    QString out;
    for (const auto& u : r.unscanned)
        out += QObject::tr(" Not scanned: %1 (slots %2): %3.")
                   .arg(QString::fromStdString(u.address), QString::fromStdString(u.slotRanges),
                        QString::fromStdString(u.error));
    if (!r.slotsWithoutPrimary.empty())
        out += QObject::tr(" Not scanned: slots %1 have no primary.")
                   .arg(QString::fromStdString(r.slotsWithoutPrimary));
    return out;
}

}  // namespace

DiscoverDialog::DiscoverDialog(ConnectionProfile profile, QWidget* parent)
    : QDialog(parent),
      profile_(std::move(profile)),
      keysSeen_(std::make_shared<std::atomic<quint64>>(0)) {
    setWindowTitle(tr("Discover locks on %1").arg(profile_.name));
    summary_ = new QLabel(tr("Scans the whole keyspace of %1, paced to a quarter of the "
                             "server's time, for keys that look like locks outside %2.")
                              .arg(profile_.displayUrl(), profile_.patterns.join(", ")));
    summary_->setWordWrap(true);
    progress_ = new QProgressBar;
    progress_->setRange(0, 0);
    cancel_ = new QPushButton(tr("Cancel scan"));
    table_ = new QTableWidget(0, ColumnCount);
    table_->setHorizontalHeaderLabels(
        {tr("Pattern"), tr("Locks"), tr("Kinds"), tr("Examples"), QString()});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(Examples, QHeaderView::Stretch);
    table_->setColumnWidth(Pattern, 200);
    table_->setColumnWidth(Keys, 60);
    table_->setColumnWidth(Kinds, 160);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    auto* row = new QHBoxLayout;
    row->addWidget(progress_, 1);
    row->addWidget(cancel_);
    layout->addLayout(row);
    layout->addWidget(table_, 1);
    layout->addWidget(buttons);
    resize(820, 420);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(cancel_, &QPushButton::clicked, this, [this] { stop_.request_stop(); });
    connect(&watcher_, &QFutureWatcher<DiscoverOutcome>::finished, this, [this] {
        showOutcome(watcher_.result());
        running_ = false;
        emit scanDone();
    });
    auto* tick = new QTimer(this);
    connect(tick, &QTimer::timeout, this, [this] {
        if (running()) progress_->setFormat(tr("%1 keys scanned").arg(keysSeen_->load()));
    });
    tick->start(200);
}

DiscoverDialog::~DiscoverDialog() {
    stop_.request_stop();
    watcher_.waitForFinished();
}

void DiscoverDialog::start() {
    if (running()) return;
    running_ = true;
    table_->setRowCount(0);
    progress_->show();
    cancel_->show();
    stop_ = std::stop_source();
    inspect::DiscoverOptions options;
    for (const QString& p : profile_.patterns) options.currentPatterns.push_back(p.toStdString());
    options.scanReplicas = profile_.scanReplica;
    auto seen = keysSeen_;
    auto token = stop_.get_token();
    watcher_.setFuture(runOnPool([profile = profile_, options, seen, token] {
        DiscoverOutcome outcome;
        try {
            // Behind Sentinel the endpoint's host is no server (the default, or the first
            // Sentinel's): the service's primary now is scanned.
            const Endpoint endpoint =
                profile.sentinelUrl.isEmpty()
                    ? profile.endpoint
                    : discoverPrimary(profile.sentinelTarget(),
                                      {.connectTimeout = std::chrono::milliseconds(3000),
                                       .commandTimeout = std::chrono::milliseconds(3000)});
            // Its own connections, read-only: Discover only reads. A cluster behind the
            // endpoint: every shard is scanned, not only the node named.
            inspect::ClusterRouter router(endpoint, {.readOnly = true}, profile.clusterAddressing);
            outcome.result = inspect::discover(
                router, options, token,
                [seen](const inspect::ScanProgress& p) { seen->store(p.keysSeen); });
        } catch (const Error& e) {
            outcome.error = QString::fromStdString(e.what());
        }
        return outcome;
    }));
}

void DiscoverDialog::showOutcome(const DiscoverOutcome& outcome) {
    progress_->hide();
    cancel_->hide();
    if (!outcome.error.isEmpty()) {
        summary_->setText(tr("Discover failed: %1").arg(outcome.error));
        return;
    }
    const auto& r = outcome.result;
    QString text = tr("%1 keys scanned%2%3: %4 look like locks, %5 already covered by %6.")
                       .arg(r.keysScanned)
                       .arg(nodesText(r), r.cancelled ? tr(" (cancelled)") : QString())
                       .arg(r.lockShaped)
                       .arg(r.alreadyCovered)
                       .arg(profile_.patterns.join(", "));
    text += partialText(r);
    if (r.proposals.empty())
        text += r.complete() ? tr(" No lock outside the patterns.")
                             : tr(" No lock outside the patterns in what was scanned; the "
                                  "rest is unknown.");
    else
        text += tr(" Patterns that would cover the others:");
    summary_->setText(text);
    table_->setRowCount(int(r.proposals.size()));
    for (int i = 0; i < int(r.proposals.size()); ++i) {
        const auto& p = r.proposals[std::size_t(i)];
        const QString pattern = QString::fromStdString(p.pattern);
        table_->setItem(i, Pattern, new QTableWidgetItem(pattern));
        auto* count = new QTableWidgetItem(QString::number(p.keys));
        count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(i, Keys, count);
        table_->setItem(i, Kinds, new QTableWidgetItem(joined(p.kinds)));
        auto* examples = new QTableWidgetItem(joined(p.examples));
        examples->setToolTip(joined(p.examples));
        table_->setItem(i, Examples, examples);
        auto* add = new QPushButton(tr("Add"));
        add->setToolTip(tr("Watch %1 too on %2").arg(pattern, profile_.name));
        connect(add, &QPushButton::clicked, this, [this, add, pattern] {
            add->setEnabled(false);
            add->setText(tr("Added"));
            emit addPatterns(profile_.id, {pattern});
        });
        table_->setCellWidget(i, Add, add);
    }
    table_->resizeColumnToContents(Add);
}

QPushButton* DiscoverDialog::addButton(int row) const {
    return qobject_cast<QPushButton*>(table_->cellWidget(row, Add));
}

}  // namespace lockscope::ui

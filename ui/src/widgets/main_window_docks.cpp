// MainWindow's bottom docks: the command log (with the load it costs) and the audit log
// with its filter, and the View menu that toggles them.
#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "models/audit_log_model.h"
#include "models/command_log_model.h"
#include "widgets/load_indicator.h"
#include "widgets/main_window.h"

namespace lockscope::ui {

void MainWindow::buildDocks() {
    commandLog_ = new CommandLogModel(this);
    commandLogView_ = new QTableView;
    commandLogView_->setModel(commandLog_);
    commandLogView_->verticalHeader()->hide();
    commandLogView_->horizontalHeader()->setStretchLastSection(false);
    commandLogView_->horizontalHeader()->setSectionResizeMode(CommandLogModel::Command,
                                                              QHeaderView::Stretch);
    commandLogView_->setColumnWidth(CommandLogModel::Time, 100);
    commandLogView_->setColumnWidth(CommandLogModel::Instance, 160);
    commandLogView_->setColumnWidth(CommandLogModel::Reply, 220);
    connect(commandLog_, &QAbstractItemModel::rowsInserted, commandLogView_,
            &QTableView::scrollToBottom);
    auto* commands = new QDockWidget(tr("Command log"), this);
    commands->setObjectName(QStringLiteral("commandLogDock"));
    // What the commands below cost the servers now, above them.
    auto* commandsPane = new QWidget;
    auto* commandsLayout = new QVBoxLayout(commandsPane);
    commandsLayout->setContentsMargins(0, 0, 0, 0);
    commandsLayout->setSpacing(2);
    commandsLayout->addWidget(new LoadIndicator(*hub_));
    commandsLayout->addWidget(commandLogView_, 1);
    commands->setWidget(commandsPane);
    addDockWidget(Qt::BottomDockWidgetArea, commands);

    // The audit log as a table with a filter (time, user, connection, key, action, result),
    // the whole file, not just this session's lines.
    auditLog_ = new AuditLogModel(this);
    auditLog_->setPath(auditPath_);
    auto* auditProxy = new QSortFilterProxyModel(this);
    auditProxy->setSourceModel(auditLog_);
    auditProxy->setFilterKeyColumn(-1);
    auditProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    auditFilter_ = new QLineEdit;
    auditFilter_->setPlaceholderText(tr("Filter by time, user, connection, key, action or result"));
    auditFilter_->setClearButtonEnabled(true);
    connect(auditFilter_, &QLineEdit::textChanged, auditProxy,
            &QSortFilterProxyModel::setFilterFixedString);
    auditTable_ = new QTableView;
    auditTable_->setModel(auditProxy);
    auditTable_->verticalHeader()->hide();
    auditTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    auditTable_->horizontalHeader()->setSectionResizeMode(AuditLogModel::Key, QHeaderView::Stretch);
    auditTable_->setColumnWidth(AuditLogModel::Time, 150);
    auditTable_->setColumnWidth(AuditLogModel::Connection, 180);
    connect(auditLog_, &QAbstractItemModel::rowsInserted, auditTable_, &QTableView::scrollToBottom);
    auto* auditPage = new QWidget;
    auto* auditLayout = new QVBoxLayout(auditPage);
    auditLayout->setContentsMargins(2, 2, 2, 2);
    auditLayout->addWidget(auditFilter_);
    auditLayout->addWidget(auditTable_, 1);
    auto* path =
        new QLabel(tr("File: %1").arg(auditPath_.isEmpty() ? tr("unavailable") : auditPath_));
    path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auditLayout->addWidget(path);
    auto* audit = new QDockWidget(tr("Audit log"), this);
    audit->setObjectName(QStringLiteral("auditLogDock"));
    audit->setWidget(auditPage);
    addDockWidget(Qt::BottomDockWidgetArea, audit);
    tabifyDockWidget(commands, audit);
    commands->raise();
    QAction* toggle = commands->toggleViewAction();
    toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    toggle->setIcon(QIcon(QStringLiteral(":/icons/log.svg")));
    addAction(toggle);
    QAction* auditToggle = audit->toggleViewAction();
    auditToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    addAction(auditToggle);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(toggle);
    view->addAction(auditToggle);
    view->addSeparator();
    view->addAction(fullSpeedAction_);
    // A dock opened from hidden gets its minimum height, a strip showing two rows: give it
    // a usable third of the window instead.
    for (QDockWidget* dock : {commands, audit})
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
            if (!visible) return;
            // After the layout has placed it: before that its height means nothing.
            QTimer::singleShot(0, dock, [this, dock] {
                if (dock->isVisible() && dock->height() < height() / 4)
                    resizeDocks({dock}, {std::max(220, height() / 3)}, Qt::Vertical);
            });
        });
    commands->hide();
    audit->hide();
}

void MainWindow::appendAuditTail() {
    auditLog_->reload();
}

}  // namespace lockscope::ui

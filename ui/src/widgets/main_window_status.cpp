// MainWindow's status line for the connections: each one's state, a cluster's health.
#include <QStatusBar>

#include "session/connection_hub.h"
#include "widgets/connection_sidebar.h"
#include "widgets/main_window.h"

namespace lockscope::ui {

void MainWindow::onStateChanged(const QString& id, ConnectionState state, const QString& message) {
    sidebar_->setState(id, state, message);
    const ConnectionProfile* p = sidebar_->profile(id);
    QString name = p ? p->name : hub_->nameOf(id);
    // A cluster down: its nodes' reconnect errors are symptoms; the status bar keeps saying
    // which node is down and which slots have no primary (issue 35).
    const QString down = sidebar_->clusterDownSaid(id);
    if (state == ConnectionState::Failed || state == ConnectionState::Reconnecting)
        statusBar()->showMessage(tr("%1: %2").arg(name, down.isEmpty() ? message : down));
    else if (state == ConnectionState::Connected && editReconnects_.contains(id))
        statusBar()->showMessage(
            tr("%1: reconnected, as %2 changed: %3").arg(name, editReconnects_.take(id), message),
            10000);
    else if (state == ConnectionState::Connected)
        statusBar()->showMessage(tr("%1: %2").arg(name, message), 5000);
    if (state == ConnectionState::Failed) editReconnects_.remove(id);
}

// Issue 32: an edit that moves the watch (another address, credentials, TLS...) cannot keep
// it; the operator is told why the rows start over, here and once connected again.
void MainWindow::onReconnectingForEdit(const QString& id, const QString& what) {
    editReconnects_[id] = what;
    const ConnectionProfile* p = sidebar_->profile(id);
    statusBar()->showMessage(
        tr("%1: reconnecting, as %2 changed: its locks are read anew").arg(p ? p->name : id, what));
}

// Issue 35: a cluster that cannot serve says where (the nodes down) and why (the slots left
// without a primary), in the sidebar and in the status bar until it answers again.
void MainWindow::onClusterHealth(const QString& id, const QString& downNodes,
                                 const QString& slotsWithoutPrimary) {
    sidebar_->setClusterHealth(id, downNodes, slotsWithoutPrimary);
    const QString name = hub_->nameOf(id);
    if (downNodes.isEmpty()) {
        statusBar()->showMessage(tr("%1: every primary answers again").arg(name), 8000);
        return;
    }
    statusBar()->showMessage(
        tr("%1: cluster down — %2 not answering; slots without a primary: %3")
            .arg(name, downNodes,
                 slotsWithoutPrimary.isEmpty() ? tr("none") : slotsWithoutPrimary));
}

}  // namespace lockscope::ui

// The actions half of ConnectionWorker (connection_worker.h): the operator's safe actions
// (release, add TTL, force delete) run on the worker's thread, on a connection to the key's
// slot owner, refused while the row's node does not answer.

#include "lockscope/errors.h"
#include "session/connection_worker.h"

namespace lockscope::ui {

// Whether the node whose rows carry this instance answered its last read: an action on a
// row shown as stale is refused (and audited as refused), not sent to a server that is down.
bool ConnectionWorker::answers(const QString& instance) const {
    if (!engine_ || !opened_) return false;
    const bool cluster = engine_->isCluster();
    for (const inspect::WatchedNode& n : engine_->nodes())
        if (!cluster || instanceOf(n.name) == instance)
            return n.state == inspect::NodeState::Connected;
    return false;
}

void ConnectionWorker::act(LockAction action, const QString& key, const inspect::LockRecord& seen,
                           qint64 ttlMs, bool confirmed) {
    const LockActionRequest request{action, &seen, ttlMs, confirmed};
    const QString name = actionName(action);
    const QString instance = QString::fromStdString(seen.instanceName());
    if (!answers(instance)) {
        const QString why = tr("not connected to %1").arg(instance);
        auditRefusal(audit_.get(), instance_, request, why);
        emit actionFinished(instance, key, name, false, -1, why);
        return;
    }
    const auto observeIt = [this](Connection& c) { observe(c); };
    try {
        inspect::ActionResult result;
        if (inspect::ClusterRouter* router = actionRouter()) {
            // On a cluster the action goes to the key's slot owner now, not to the node the
            // row was read from: the slot may have moved since. The router follows one MOVED
            // and one ASK; a lost reply is the outcome Unknown, returned, never sent again.
            router->onKey(
                seen.key,
                [&](Connection& c) {
                    observe(c);
                    result = runLockAction(c, router, audit_.get(), observeIt, request);
                },
                [&](Connection& c) {
                    observe(c);
                    if (!c.isReadOnly()) inspect::preloadActionScripts(c);
                });
        } else {
            result = runLockAction(actionConnection(), nullptr, audit_.get(), observeIt, request);
        }
        emit actionFinished(instance, key, name, result.ok(), int(result.outcome),
                            QString::fromStdString(result.message));
    } catch (const Error& e) {
        // Made again at the next action: the primary may have changed (a failover).
        if (dynamic_cast<const IoError*>(&e)) {
            actionConnection_.reset();
            router_.reset();
        }
        emit actionFinished(instance, key, name, false, -1, QString::fromStdString(e.what()));
    }
    scheduleNext(0);
}

}  // namespace lockscope::ui

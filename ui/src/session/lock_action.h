#pragma once
// The operator's safe actions on one lock as a connection's worker runs them: Release (the
// library's own way for Redisson, sidekiq and Spring locks, so their waiters wake), Add TTL and
// Force delete; and the audit log's line for an action refused before it reached Redis.

#include <QString>
#include <functional>

#include "lockscope/connection.h"
#include "lockscope/inspect/audit_log.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/safe_actions.h"

namespace lockscope::ui {

enum class LockAction { Release, AddTtl, ForceDelete };
// "release", "expire", "force-delete": as the audit log and the CLI name them.
QString actionName(LockAction action);

struct LockActionRequest {
    LockAction action = LockAction::Release;
    const inspect::LockRecord* seen = nullptr;  // the row as the operator saw it
    qint64 ttlMs = 0;                           // Add TTL
    bool confirmed = false;                     // Force delete
};

// Runs the action on `on`. router (a cluster; null on a plain server): a library release's
// other keys (a digest's) go each to its own node, observed too. audit may be null.
inspect::ActionResult runLockAction(Connection& on, inspect::ClusterRouter* router,
                                    inspect::AuditLog* audit,
                                    const std::function<void(Connection&)>& observe,
                                    const LockActionRequest& request);

// The README promises every manual action in the audit log, refused ones too.
void auditRefusal(inspect::AuditLog* audit, const QString& instance,
                  const LockActionRequest& request, const QString& why);

}  // namespace lockscope::ui

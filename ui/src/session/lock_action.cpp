#include "session/lock_action.h"

#include "lockscope/errors.h"
#include "lockscope/inspect/library_release.h"

namespace lockscope::ui {

QString actionName(LockAction action) {
    switch (action) {
        case LockAction::Release:
            return QStringLiteral("release");
        case LockAction::AddTtl:
            return QStringLiteral("expire");
        case LockAction::ForceDelete:
            return QStringLiteral("force-delete");
    }
    return {};
}

inspect::ActionResult runLockAction(Connection& on, inspect::ClusterRouter* router,
                                    inspect::AuditLog* audit,
                                    const std::function<void(Connection&)>& observe,
                                    const LockActionRequest& request) {
    const inspect::LockRecord& seen = *request.seen;
    inspect::SafeActions actions(on, audit);
    const std::string& k = seen.key;  // the exact bytes: a key need not be valid UTF-8
    switch (request.action) {
        case LockAction::Release: {
            if (!inspect::hasLibraryRelease(seen.kind))
                return actions.release(k, inspect::Holder::of(seen));
            inspect::LibraryRelease::KeyRoute route;
            if (router)
                route = [router, &observe](
                            std::string_view key, const inspect::LibraryRelease::ConnectionAct& act,
                            const inspect::LibraryRelease::ConnectionAct& beforeAsk) {
                    router->onKey(
                        key,
                        [&](Connection& c) {
                            observe(c);
                            act(c);
                        },
                        beforeAsk);
                };
            return inspect::LibraryRelease(on, audit, route).release(seen);
        }
        case LockAction::AddTtl:
            return actions.expire(k, inspect::Holder::of(seen),
                                  std::chrono::milliseconds(request.ttlMs));
        case LockAction::ForceDelete:
            return actions.forceDelete(k, request.confirmed);
    }
    return {};
}

void auditRefusal(inspect::AuditLog* audit, const QString& instance,
                  const LockActionRequest& request, const QString& why) {
    if (!audit) return;
    const inspect::LockRecord& seen = *request.seen;
    inspect::AuditEntry entry;
    entry.instance = instance.toStdString();
    entry.key = seen.key;
    entry.action = actionName(request.action).toStdString();
    if (seen.fields.empty())
        entry.tokenSeen = seen.token;
    else
        entry.fieldsSeen = seen.fields;
    if (request.action == LockAction::AddTtl) entry.ttlMs = request.ttlMs;
    entry.result = "refused";
    entry.detail = why.toStdString();
    try {
        audit->append(entry);
    } catch (const Error&) {
        // The refusal is still shown; an unwritable audit log was reported at start.
    }
}

}  // namespace lockscope::ui

// An edited connection applied to ConnectionWorker's running watch (connection_hub_edit.h):
// the patterns, the load budget, read-only and the Settings' watch options change without a
// new watch, so the rows keep their history (first seen, renewals, handoffs).

#include "lockscope/errors.h"
#include "session/connection_worker.h"

namespace lockscope::ui {

void ConnectionWorker::setPatterns(const QStringList& patterns) {
    std::vector<std::string> list;
    for (const QString& p : patterns) list.push_back(p.toStdString());
    try {
        if (engine_ && opened_) deliver(engine_->setPatterns(list));
        options_.scan.patterns = list;  // a reopened engine scans with them too
        profile_.patterns = patterns;
    } catch (const Error& e) {
        logNote(tr("patterns not changed: %1").arg(QString::fromStdString(e.what())));
    }
    scheduleNext(0);
}

void ConnectionWorker::setBudget(double share) {
    try {
        if (engine_) engine_->setBudget(share);
        options_.budget = share;  // a reopened engine keeps it too
        profile_.maxLoad = share;
        reportLoad();  // the load indicator shows the new budget now, not in a second
    } catch (const Error& e) {
        logNote(tr("load budget not changed: %1").arg(QString::fromStdString(e.what())));
    }
}

void ConnectionWorker::setJudging(const inspect::WatchJudging& judging) {
    options_.includeNonLocks = judging.includeNonLocks;  // a reopened engine judges so too
    options_.doctor.heldTooLong = judging.heldTooLong;
    if (!engine_ || !opened_) return;
    deliver(engine_->setJudging(judging));
    scheduleNext(0);  // ordinary keys now shown come with the next round's rescan
}

void ConnectionWorker::setReadOnly(bool readOnly) {
    profile_.readOnly = readOnly;
    // The actions' connections were opened read-only or not: the next action opens anew.
    router_.reset();
    actionConnection_.reset();
}

}  // namespace lockscope::ui

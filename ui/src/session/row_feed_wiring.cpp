#include "session/row_feed_wiring.h"

#include "models/lock_row_feed.h"
#include "session/connection_hub.h"

namespace lockscope::ui {

void feedRowsFrom(ConnectionHub& hub, LockRowFeed& feed) {
    QObject::connect(&hub, &ConnectionHub::locksChanged, &feed, &LockRowFeed::onLocksChanged);
    QObject::connect(&hub, &ConnectionHub::serverEmptied, &feed, &LockRowFeed::onServerEmptied);
    QObject::connect(&hub, &ConnectionHub::locksMoved, &feed, &LockRowFeed::onLocksMoved);
    QObject::connect(&hub, &ConnectionHub::instanceClosed, &feed, &LockRowFeed::onInstanceClosed);
    QObject::connect(&hub, &ConnectionHub::scanStarted, &feed, &LockRowFeed::onScanStarted);
    QObject::connect(&hub, &ConnectionHub::scanFinished, &feed,
                     [&feed](const QString&, bool cancelled) { feed.onScanFinished(cancelled); });
    // A worker waits while the feed holds its rows unapplied: the GUI thread is never
    // buried under what fifty watches re-read (issue 36).
    hub.takeRowsWhenReceiverSays();
    QObject::connect(&feed, &LockRowFeed::taken, &hub, &ConnectionHub::rowsTaken);
}

}  // namespace lockscope::ui

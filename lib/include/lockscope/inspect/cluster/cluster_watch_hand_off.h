#pragma once
// Watching a Redis Cluster is one LockWatch per primary. When an operator moves a slot, the
// old owner's next read of its keys answers MOVED (or, while the slot migrates, ASK for the
// keys already sent). Without a hand-off those locks dropped out of view until the new
// owner's sweep found them and the topology was asked again (its 30 s safety net). After
// each round of steps, handOffRedirectedKeys() turns those answers into a topology refresh
// at once (logged in the router's events), moves the slot's keys from the old owner's watch
// to the new owner's, read there in the same round, and reads the keys of a migrating slot
// from the importing node with ASKING, so the lock stays in view, once, throughout.

#include <string>
#include <vector>

#include "lockscope/endpoint.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/lock_watch.h"

namespace lockscope::inspect {

struct WatchedPrimary {
    LockWatch* watch = nullptr;  // with WatchOptions::handOffRedirects
    Endpoint endpoint;           // the node it watches (as the router reaches it)
};

struct SlotHandOff {
    int slot = 0;
    std::string from, to;           // Endpoint::display() of the two watched nodes
    std::vector<std::string> keys;  // the locks the new owner shows now
};

// updates[i] is the round's update of watched[i]: the giver's gets the keys in movedAway,
// the taker's the records it read (changed). Reply errors of the refresh or of a read are
// left for the next round (the keys stay as last seen); connection errors are thrown.
std::vector<SlotHandOff> handOffRedirectedKeys(ClusterRouter& router,
                                               std::vector<WatchedPrimary>& watched,
                                               std::vector<WatchUpdate>& updates);

// A slot's locks given up by a watch whose peers run elsewhere (the window watches each
// primary on a thread of its own, so no one call holds every watch): the records with their
// history (first seen, renewals, handoffs), for LockWatch::adoptSlot on the watch of `to`.
struct SlotGift {
    int slot = 0;
    Endpoint to;  // the slot's owner now, as the router reaches it
    std::vector<LockRecord> records;
};

// handOffRedirectedKeys for one watch: the topology is asked now, the keys of a migrating
// slot are read on the importing node (ASKING), and the locks of a slot now served by another
// node are given up (their keys in update.movedAway) and returned for that node's watch.
// Same errors as handOffRedirectedKeys.
std::vector<SlotGift> giveUpRedirectedSlots(ClusterRouter& router, const WatchedPrimary& self,
                                            WatchUpdate& update);

}  // namespace lockscope::inspect

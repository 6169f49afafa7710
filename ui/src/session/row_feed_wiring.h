#pragma once
// The lock table's row feed on a hub: what the connection watches report reaches the feed,
// and the feed says when it has applied each worker's rows, which is when that worker may
// send more (handover_credit.h). The window and the tests wire it the same way.

namespace lockscope::ui {

class ConnectionHub;
class LockRowFeed;

void feedRowsFrom(ConnectionHub& hub, LockRowFeed& feed);

}  // namespace lockscope::ui

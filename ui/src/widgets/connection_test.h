#pragma once
// What the connection dialog's Test button does, off the GUI thread: connect,
// authenticate, select and PING, nothing else (a restricted ACL user needs no INFO or
// CONFIG to pass), and over TLS report what was negotiated: protocol, cipher, and the
// server certificate's subject, issuer, names and expiry — and say loudly when nothing was
// verified.

#include <QString>

#include "lockscope/endpoint.h"
#include "lockscope/sentinel.h"

namespace lockscope::ui {

struct ConnectionTestOutcome {
    bool ok = false;
    QString message;  // one line per fact; the error's own text when !ok
};

// Blocking: run it on a pool thread.
ConnectionTestOutcome testConnection(const Endpoint& endpoint);
// Behind Sentinel (lockscope/sentinel.h): asks the Sentinels for the primary (with their
// own credentials), then tests it as above with the data nodes' endpoint (credentials, db,
// TLS). A failure is the lib's error, as the window's connection reports it.
// Takes only std types: nothing implicitly shared with the GUI thread's QStrings goes to the
// pool thread (its copies' reference counts would be dropped there, out of TSan's sight).
ConnectionTestOutcome testSentinelConnection(const SentinelTarget& target);

}  // namespace lockscope::ui

#pragma once
// What the connection dialog's Test button does, off the GUI thread: connect,
// authenticate, select and PING, nothing else (a restricted ACL user needs no INFO or
// CONFIG to pass), and over TLS report what was negotiated: protocol, cipher, and the
// server certificate's subject, issuer, names and expiry — and say loudly when nothing was
// verified.

#include <QString>

#include "lockscope/endpoint.h"

namespace lockscope::ui {

struct ConnectionTestOutcome {
    bool ok = false;
    QString message;  // one line per fact; the error's own text when !ok
};

// Blocking: run it on a pool thread.
ConnectionTestOutcome testConnection(const Endpoint& endpoint);

}  // namespace lockscope::ui

#pragma once
// One command a connection's worker sent, with its reply and latency: what the command log
// drawer lists. Kept apart from the worker so the models need no session code.

#include <QString>

namespace lockscope::ui {

struct CommandLogEntry {
    QString instance;
    QString command;
    QString reply;
    qint64 latencyUs = 0;
    qint64 wallMs = 0;
};

}  // namespace lockscope::ui

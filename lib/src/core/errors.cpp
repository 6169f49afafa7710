#include "lockscope/errors.h"

namespace lockscope {

const char* toString(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::InvalidArgument:
            return "invalid argument";
        case ErrorKind::ConnectionRefused:
            return "cannot connect";
        case ErrorKind::Timeout:
            return "timeout";
        case ErrorKind::ConnectionLost:
            return "connection lost";
        case ErrorKind::Protocol:
            return "protocol error";
        case ErrorKind::Authentication:
            return "authentication failed";
        case ErrorKind::PermissionDenied:
            return "permission denied";
        case ErrorKind::ReadOnly:
            return "read-only";
        case ErrorKind::Reply:
            return "server error";
        case ErrorKind::Storage:
            return "storage error";
        case ErrorKind::Process:
            return "process error";
        case ErrorKind::OutcomeUnknown:
            return "outcome unknown";
        case ErrorKind::Cancelled:
            return "cancelled";
    }
    return "error";
}

ServerErrorCode serverErrorCodeOf(std::string_view text) {
    struct Prefix {
        std::string_view word;
        ServerErrorCode code;
    };
    static constexpr Prefix kPrefixes[] = {
        {"NOSCRIPT", ServerErrorCode::NoScript},
        {"NOAUTH", ServerErrorCode::NoAuth},
        {"WRONGPASS", ServerErrorCode::WrongPass},
        {"NOPERM", ServerErrorCode::NoPerm},
        {"READONLY", ServerErrorCode::ReadOnly},
        {"LOADING", ServerErrorCode::Loading},
        {"BUSY", ServerErrorCode::Busy},
        {"MOVED", ServerErrorCode::Moved},
        {"ASK", ServerErrorCode::Ask},
        {"TRYAGAIN", ServerErrorCode::TryAgain},
        {"CLUSTERDOWN", ServerErrorCode::ClusterDown},
        {"MASTERDOWN", ServerErrorCode::MasterDown},
        {"WRONGTYPE", ServerErrorCode::WrongType},
        {"EXECABORT", ServerErrorCode::ExecAbort},
    };
    // The code is the first word, ended by a space or the end of the reply.
    std::string_view word = text.substr(0, text.find(' '));
    if (word == "ERR")
        return text.starts_with("ERR unknown command") ? ServerErrorCode::UnknownCommand
                                                       : ServerErrorCode::Err;
    for (const Prefix& p : kPrefixes)
        if (word == p.word) return p.code;
    return ServerErrorCode::Other;
}

ErrorKind errorKindOfServerError(std::string_view text) {
    switch (serverErrorCodeOf(text)) {
        case ServerErrorCode::NoPerm:
            return ErrorKind::PermissionDenied;
        case ServerErrorCode::NoAuth:
        case ServerErrorCode::WrongPass:
            return ErrorKind::Authentication;
        case ServerErrorCode::Err:
            // Servers before ACLs (and some proxies) say "ERR invalid password", "ERR AUTH
            // <password> called without any password configured", "ERR Client sent AUTH...".
            if (text.starts_with("ERR invalid password") || text.starts_with("ERR AUTH") ||
                text.starts_with("ERR Client sent AUTH"))
                return ErrorKind::Authentication;
            return ErrorKind::Reply;
        default:
            return ErrorKind::Reply;
    }
}

void throwServerError(const std::string& context, std::string_view replyText) {
    std::string message = context + ": " + std::string(replyText);
    ServerErrorCode code = serverErrorCodeOf(replyText);
    switch (errorKindOfServerError(replyText)) {
        case ErrorKind::PermissionDenied:
            throw PermissionError(message, code);
        case ErrorKind::Authentication:
            throw AuthenticationError(message, code);
        default:
            throw ReplyError(message, ErrorKind::Reply, code);
    }
}

}  // namespace lockscope

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
    }
    return "error";
}

}  // namespace lockscope

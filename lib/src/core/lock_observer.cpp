#include "lockscope/lock_observer.h"

namespace lockscope {

const char* toString(LockEventKind kind) {
    switch (kind) {
        case LockEventKind::Acquired:
            return "acquired";
        case LockEventKind::Extended:
            return "extended";
        case LockEventKind::Lost:
            return "lost";
        case LockEventKind::Released:
            return "released";
        case LockEventKind::FenceRegressed:
            return "fence regressed";
        case LockEventKind::AcquireFailed:
            return "acquire failed";
        case LockEventKind::ExtendFailed:
            return "extend failed";
    }
    return "?";
}

}  // namespace lockscope

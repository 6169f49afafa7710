#include "reconnect_backoff.h"

#include <algorithm>

namespace lockscope::inspect {

std::chrono::milliseconds ReconnectBackoff::failed() {
    wait_ = wait_.count() == 0 ? kFirst : std::min(wait_ * 2, kMost);
    return wait_;
}

}  // namespace lockscope::inspect

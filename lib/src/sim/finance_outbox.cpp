#include "lockscope/sim/finance_outbox.h"

namespace lockscope::sim {

void FinanceOutbox::deliver(VirtualMs time, const std::string& sender, bool reportIntact) {
    delivered_.push_back({time, sender, reportIntact});
}

}  // namespace lockscope::sim

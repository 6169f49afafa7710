#pragma once
// Finance's mailbox: every report email that went out, and those an idempotency key held
// back. Whether a sent report was intact is recorded, because a corrupted file can be
// emailed too.

#include <string>
#include <vector>

#include "lockscope/sim/virtual_time.h"

namespace lockscope::sim {

class FinanceOutbox {
  public:
    struct Email {
        VirtualMs time = 0;
        std::string sender;
        bool reportIntact = true;
    };

    void deliver(VirtualMs time, const std::string& sender, bool reportIntact);
    void suppress() { ++suppressed_; }

    const std::vector<Email>& delivered() const { return delivered_; }
    int suppressed() const { return suppressed_; }

  private:
    std::vector<Email> delivered_;
    int suppressed_ = 0;
};

}  // namespace lockscope::sim

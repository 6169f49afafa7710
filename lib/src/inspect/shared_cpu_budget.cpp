#include "lockscope/inspect/shared_cpu_budget.h"

#include <algorithm>
#include <utility>

#include "lockscope/errors.h"

namespace lockscope::inspect {

SharedCpuBudget::SharedCpuBudget(double total) : total_(total) {
    if (!(total > 0.0 && total <= 1.0))
        throw InvalidArgumentError("a shared CPU budget must be above 0% and at most 100%");
}

double SharedCpuBudget::perMember() const {
    return total_ / double(std::max(1, members()));
}

SharedCpuBudget::Membership::Membership(std::shared_ptr<SharedCpuBudget> budget)
    : budget_(std::move(budget)) {
    if (!budget_) throw InvalidArgumentError("a membership needs a shared CPU budget");
    budget_->members_.fetch_add(1, std::memory_order_relaxed);
}

SharedCpuBudget::Membership::~Membership() {
    budget_->members_.fetch_sub(1, std::memory_order_relaxed);
}

SharedCpuBudget::Membership::Membership(const Membership& other) : Membership(other.budget_) {}

SharedCpuBudget::Membership& SharedCpuBudget::Membership::operator=(const Membership& other) {
    if (this == &other || budget_ == other.budget_) return *this;
    other.budget_->members_.fetch_add(1, std::memory_order_relaxed);
    budget_->members_.fetch_sub(1, std::memory_order_relaxed);
    budget_ = other.budget_;
    return *this;
}

}  // namespace lockscope::inspect

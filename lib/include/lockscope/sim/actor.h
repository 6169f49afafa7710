#pragma once
// An actor is a process of the story (a scheduler instance, a client of the guide's
// script, an operator at the inspector) written as a small state machine: step() runs at
// the actor's wake time, sends commands through the StepContext and sets the next wake.
// State machines rather than coroutines because a checkpoint must copy them.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "lockscope/sim/timeline.h"
#include "lockscope/sim/virtual_time.h"

namespace lockscope::sim {

class StepContext;

class Actor {
  public:
    Actor(std::string name, LaneId lane) : name_(std::move(name)), lane_(lane) {}
    virtual ~Actor() = default;

    virtual std::unique_ptr<Actor> clone() const = 0;
    virtual void step(StepContext& context) = 0;

    const std::string& name() const { return name_; }
    LaneId lane() const { return lane_; }

    std::optional<VirtualMs> wake;  // none: the actor has nothing more to do
    std::uint64_t wakeSeq = 0;      // orders actors due at the same millisecond
    // Set when the wait is work the process does (StepContext::workFor): a pause during it
    // adds its length, as a frozen process does no work. Unset: a wait for a time (a sleep,
    // a timer), which a pause only delays to its end.
    std::optional<VirtualMs> workFrom;
    bool crashed = false;

  private:
    std::string name_;
    LaneId lane_;
};

// Gives an actor type its clone() by copy construction.
template <class Derived>
class ClonableActor : public Actor {
  public:
    using Actor::Actor;
    std::unique_ptr<Actor> clone() const override {
        return std::make_unique<Derived>(static_cast<const Derived&>(*this));
    }
};

// Owns an actor and copies it deeply, so a World is a plain copyable value.
class ActorPtr {
  public:
    explicit ActorPtr(std::unique_ptr<Actor> actor) : actor_(std::move(actor)) {}
    ActorPtr(const ActorPtr& other) : actor_(other.actor_->clone()) {}
    ActorPtr& operator=(const ActorPtr& other) {
        if (this != &other) actor_ = other.actor_->clone();
        return *this;
    }
    ActorPtr(ActorPtr&&) noexcept = default;
    ActorPtr& operator=(ActorPtr&&) noexcept = default;

    Actor* operator->() const { return actor_.get(); }
    Actor& operator*() const { return *actor_; }
    Actor* get() const { return actor_.get(); }

  private:
    std::unique_ptr<Actor> actor_;
};

}  // namespace lockscope::sim

#pragma once
// runOnPool(f): f() on Qt's global thread pool, its value in the returned QFuture; what
// QtConcurrent::run(f) does, with the hand-over to the pool thread visible to
// ThreadSanitizer.
//
// QtConcurrent::run copies the function and its arguments on the calling thread, and a pool
// thread reads that copy: nothing is shared, the copy is ordered before the run by
// QThreadPool's queue. That queue waits on a futex inside libQt6Core, and Debian's Qt is not
// built with -fsanitize=thread, so TSan saw a write and a read with nothing between them and
// reported each one as a race (tst_replay_panel: the live run reading its ScenarioParams
// copy). Here the task is built first and released with __tsan_release on its address before
// it is queued; the pool thread acquires that address before it reads anything. Outside TSan
// both are empty.

#include <QFuture>
#include <QPromise>
#include <QRunnable>
#include <QThreadPool>
#include <exception>
#include <type_traits>
#include <utility>

#include "support/tsan_handover.h"

namespace lockscope::ui {

namespace detail {

// Deleted by the pool after run() (autoDelete).
template <class F>
class PoolTask : public QRunnable {
  public:
    using Result = std::invoke_result_t<F&>;

    explicit PoolTask(F f) : f_(std::move(f)) { promise_.start(); }
    QFuture<Result> future() { return promise_.future(); }

    void run() override {
        takeOver(this);  // everything the constructing thread wrote is ours now
        try {
            if constexpr (std::is_void_v<Result>)
                f_();
            else
                promise_.addResult(f_());
        } catch (...) {
            promise_.setException(std::current_exception());
        }
        promise_.finish();
    }

  private:
    F f_;
    QPromise<Result> promise_;
};

}  // namespace detail

template <class F>
QFuture<std::invoke_result_t<std::decay_t<F>&>> runOnPool(F&& f) {
    auto* task = new detail::PoolTask<std::decay_t<F>>(std::forward<F>(f));
    auto future = task->future();
    handOver(task);  // after the task is built, before a pool thread can see it
    QThreadPool::globalInstance()->start(task);
    return future;
}

}  // namespace lockscope::ui

#pragma once
// Is each watched lock's holder alive? One node's share of ServerWatch's liveness option: one
// LivenessReader on the connection the node reads (what it saw before, a renewal, a worker
// that was connected, is evidence too), judging the rows of the node's LockWatch after each
// read. The rows a read changed are judged at once; the others turn by turn (a killed worker's
// lock does not change, its holder does), within the reader's own caps. A row whose verdict
// changed joins the update's changed rows: for a front end, a new verdict is a changed row.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "inspect/liveness/liveness_cost.h"
#include "lockscope/connection.h"
#include "lockscope/inspect/liveness/liveness_reader.h"
#include "lockscope/inspect/lock_watch.h"

namespace lockscope::inspect {

class NodeLiveness {
  public:
    // The connection must outlive this, and be the one `watch` reads (the same thread).
    NodeLiveness(Connection& connection, LivenessOptions options);

    // After a read of `watch` that reached the server: judges the rows, keeps each verdict in
    // the watch's table and puts the rows whose verdict changed in update.changed.
    void afterRead(LockWatch& watch, WatchUpdate& update, SteadyClock::time_point now);
    // Rows the turns have walked past so far (judged or passed by): what they cost the
    // watch's thread, for tests and measurements.
    std::uint64_t rowsWalked() const { return rowsWalked_; }

  private:
    // The next rows of the table after the turn's cursor, at most maxRowsPerTurn of them, but
    // for the first `judged` rows of the update (judged already): the table's own records,
    // valid while the turn judges them (nothing is added to or removed from the table then).
    std::vector<const LockRecord*> nextTurn(const LockWatch& watch, const WatchUpdate& update,
                                            std::size_t judged, SteadyClock::time_point now);
    // Keeps a row's new verdict (`current` is the table's record); true when it changed what
    // a front end shows.
    bool keep(LockWatch& watch, const LockRecord& current,
              std::shared_ptr<const HolderVerdict> verdict, bool alreadyShown, WatchUpdate& update);

    // Judges the rows with the reader and charges what its reads took to the watch's budget.
    void assess(LockWatch& watch, std::span<const LockRecord* const> rows,
                const LivenessReader::OnVerdict& onVerdict);

    Connection& connection_;
    LivenessOptions options_;
    LivenessReader reader_;
    LivenessCost cost_;  // the reads' server time, for the charge
    SteadyClock::time_point nextTurnAt_{};
    std::string cursor_;  // the last key judged by the turn in progress; empty: from the start
    bool turnInProgress_ = false;
    // Every row is judged in one cycle of turns in this many, but no more often than once a
    // minute (and after a rescan): a row settled by its record alone is checked that often
    // even if no change was seen. Every eighth cycle alone, fifty window connections (a
    // cycle every 2 s) judged their million rows every 16 s, most of their remaining CPU.
    static constexpr std::uint64_t kFullCycleEvery = 8;
    static constexpr std::chrono::seconds kFullCycleAtMostEvery{60};
    SteadyClock::time_point fullCycleDueAt_{};  // the first cycle is a full one
    bool fullCycle_ = false;  // the cycle in progress (or the next) judges every row
    // A cycle that left every row settled by its record alone while the table stood still
    // (its generation) makes the cycles after it, until the next full one, walk nothing
    // while the table still stands still: they would find no row to judge. Fifty window
    // connections of 20,000 quiet locks walked their tables every 2 s for nothing (a quarter
    // of the window's CPU, issue 36).
    std::uint64_t cycleGeneration_ = 0;     // the table's when the cycle in progress began
    std::size_t cycleUnsettled_ = 0;        // its rows left without a record-alone verdict
    std::optional<std::uint64_t> quietAt_;  // the generation a quiet cycle ended at
    std::uint64_t rowsWalked_ = 0;
};

}  // namespace lockscope::inspect

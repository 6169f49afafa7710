#pragma once
// Is whoever holds a lock still alive? A verdict with the evidence behind it (issue 31).
// `gone` (an orphan the operator may release) needs positive evidence; `unknown` is an
// honest answer. A false `gone` is the worst error LockScope can make: it leads an operator
// to release a lock that protects work in progress. So evidence that the holder lives always
// outweighs evidence that it is gone, unless the latter was seen after it (a holder that
// renewed and then died), and readers only say `gone` on evidence they confirmed.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockscope::inspect {

enum class Verdict : std::uint8_t { Alive, Gone, Unknown };
const char* toString(Verdict verdict);  // "alive", "gone", "unknown"

using WallClock = std::chrono::system_clock;

// One thing a reader saw, in words an operator can check ("no connection named as a worker
// of queue 'email'"), when it saw it, and which way it points (Unknown: a note or warning).
struct Evidence {
    std::string text;
    WallClock::time_point seenAt;
    Verdict pointsTo = Verdict::Unknown;
    bool warning = false;  // worth a look though not decisive (renewals that stopped)
    // For Alive: since when the holder has held the lock; for Gone: its last sign of life.
    std::optional<WallClock::time_point> since;
    bool operator==(const Evidence&) const = default;
};

// A line of evidence seen now, pointing to a verdict (or to none).
Evidence evidenceNow(std::string text, Verdict pointsTo = Verdict::Unknown);

struct HolderVerdict {
    Verdict verdict = Verdict::Unknown;
    // The `since` of the evidence that decided the verdict, when it gave one.
    std::optional<WallClock::time_point> since;
    std::vector<Evidence> evidence;  // every line, in the order the readers gave them
    // Nothing outside the lock's own record decided it (no holder connection, job or process
    // read; no renewal seen): it can only change with the record, so a watch judges it again
    // when the record changes (a new holder starts without a verdict), not every turn.
    bool fromRecordAlone = false;
};

// The rule: Alive evidence wins over Gone evidence unless every Gone line was seen after
// every Alive line (it lived, then it died); Gone without any Alive line is Gone; otherwise
// Unknown.
HolderVerdict weigh(std::vector<Evidence> evidence);
// The verdict alone, without evidence or since: one object per verdict for the whole
// process, for tables that count verdicts and never show why (the exporter).
std::shared_ptr<const HolderVerdict> sharedVerdict(Verdict verdict, bool fromRecordAlone = false);

// "gone: no connection named as a worker of queue 'email' (12:03:04Z); ..." for one line.
std::string describeVerdict(const HolderVerdict& verdict);

}  // namespace lockscope::inspect

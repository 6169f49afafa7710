#include "lockscope/sim/timeline.h"

namespace lockscope::sim {

const char* toString(EventKind kind) {
    switch (kind) {
        case EventKind::Command:
            return "command";
        case EventKind::KeyChanged:
            return "key-changed";
        case EventKind::KeyExpired:
            return "key-expired";
        case EventKind::FileOpened:
            return "file-opened";
        case EventKind::ChunkWritten:
            return "chunk-written";
        case EventKind::EmailSent:
            return "email-sent";
        case EventKind::EmailSuppressed:
            return "email-suppressed";
        case EventKind::FencedWriteAccepted:
            return "fenced-write-accepted";
        case EventKind::FencedWriteRejected:
            return "fenced-write-rejected";
        case EventKind::PauseStarted:
            return "pause-started";
        case EventKind::PauseEnded:
            return "pause-ended";
        case EventKind::Crashed:
            return "crashed";
        case EventKind::RunStarted:
            return "run-started";
        case EventKind::RunCompleted:
            return "run-completed";
        case EventKind::RunAborted:
            return "run-aborted";
        case EventKind::RunRefused:
            return "run-refused";
        case EventKind::Replicated:
            return "replicated";
        case EventKind::Failover:
            return "failover";
        case EventKind::ClockJumped:
            return "clock-jumped";
        case EventKind::Printed:
            return "printed";
        case EventKind::Note:
            return "note";
    }
    return "?";
}

const char* toString(IntervalKind kind) {
    switch (kind) {
        case IntervalKind::Ownership:
            return "ownership";
        case IntervalKind::JobRun:
            return "job-run";
        case IntervalKind::Pause:
            return "pause";
        case IntervalKind::LeaseLapsed:
            return "lease-lapsed";
        case IntervalKind::Crashed:
            return "crashed";
        case IntervalKind::NoTtl:
            return "no-ttl";
    }
    return "?";
}

void Recording::truncate(const Size& s) {
    events.resize(s.events);
    beats.resize(s.beats);
    intervals.resize(s.intervals);
    pttl.resize(s.pttl);
}

const Lane* Recording::lane(LaneId id) const {
    for (const auto& l : lanes)
        if (l.id == id) return &l;
    return nullptr;
}

const Lane* Recording::laneNamed(std::string_view name) const {
    for (const auto& l : lanes)
        if (l.name == name) return &l;
    return nullptr;
}

}  // namespace lockscope::sim

#include "instance_scan.h"

#include <algorithm>

#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/scanner.h"

namespace lockscope::cli {

int exitCodeFor(const Error& e) {
    switch (e.kind()) {
        case ErrorKind::ConnectionRefused:
        case ErrorKind::Timeout:
        case ErrorKind::ConnectionLost:
        case ErrorKind::Protocol:
        case ErrorKind::Authentication:
            return kCannotConnect;
        case ErrorKind::PermissionDenied:
        case ErrorKind::ReadOnly:
            return kPermissionDenied;
        case ErrorKind::InvalidArgument:
            return kUsage;
        default:
            return kError;
    }
}

std::vector<InstanceScan> scanInstances(const InspectorFlags& flags) {
    std::vector<InstanceScan> scans;
    for (const auto& endpoint : flags.endpoints) {
        InstanceScan s;
        s.endpoint = endpoint;
        try {
            Connection c = Connection::open(endpoint, connectionOptions(flags, true));
            inspect::Scanner scanner(c, flags.scan);
            inspect::ScanSummary summary;
            s.records = scanner.collect(&summary);
            s.notes = summary.notes;
            s.facts = inspect::probeServer(c);
            s.notes.insert(s.notes.end(), s.facts.notes.begin(), s.facts.notes.end());
            inspect::DoctorOptions doctorOptions;
            doctorOptions.layout = flags.scan.layout;
            inspect::Doctor(doctorOptions).annotate(s.records, s.facts);
            std::sort(s.records.begin(), s.records.end(),
                      [](const auto& a, const auto& b) { return a.key < b.key; });
        } catch (const Error& e) {
            s.error = e.what();
            s.errorExit = exitCodeFor(e);
        }
        scans.push_back(std::move(s));
    }
    return scans;
}

int exitCodeOf(const std::vector<InstanceScan>& scans) {
    int code = kOk;
    for (const auto& s : scans)
        if (s.error && code == kOk) code = s.errorExit;
    return code;
}

}  // namespace lockscope::cli

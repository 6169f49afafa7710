// The tests' stand-in for `lockscope-cli torture`: `torture_worker JSON` runs one worker
// (what the CLI's hidden torture-worker command does); `torture_worker run CLIENT FAULTS
// DURATION_MS PIDFILE` runs a whole torture in this process, so a test can interrupt it.

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <iostream>
#include <string>

#include "lockscope/torture/report.h"
#include "lockscope/torture/torture_run.h"

int main(int argc, char** argv) {
    using namespace lockscope::torture;
    if (argc == 2) return workerMain(argv[1]);
    if (argc == 6 && std::string(argv[1]) == "run") {
        char self[PATH_MAX] = {};
        if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return 2;
        TortureOptions options;
        options.client = argv[2];
        options.faults = parseFaults(argv[3]);
        options.duration = std::chrono::milliseconds(std::atoll(argv[4]));
        options.pidFile = argv[5];
        options.clients = 3;
        options.workerCommand = {self};
        auto result = runTorture(options);
        std::cout << jsonReport(options, result);
        return result.interrupted ? 130 : 0;
    }
    std::cerr
        << "usage: torture_worker JSON | torture_worker run CLIENT FAULTS DURATION_MS PIDFILE\n";
    return 2;
}

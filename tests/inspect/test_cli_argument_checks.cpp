// Argument checks that change nothing on a mistake: an --audit-log in a folder that does not
// exist is refused before anything is sent (it used to create the folders, as root too, and
// release the lock); a %00 in the URL's user part is refused whole (it used to cut every
// message naming the server at the NUL); a missing --cacertdir is named as such.

#include <filesystem>

#include "cli_runner.h"

using namespace lockscope;
using namespace lockscope::testing;

TEST_F(CliTest, AnAuditLogInAFolderThatDoesNotExistIsRefusedAndNothingIsSent) {
    observer().command({"SET", "lock:{a}", "tok", "PX", "60000"});
    const std::string missing = dir.path("no/such/folder");
    CliRun r = cli({"release", "lock:{a}", "--token", "tok", "-p", std::to_string(server().port()),
                    "--audit-log", missing + "/audit.jsonl"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path("no")));             // no folder made
    EXPECT_EQ(observer().command({"GET", "lock:{a}"}).text(), "tok");  // not released
    // An existing folder is fine, and the default path keeps making its own folders.
    CliRun ok = cli({"release", "lock:{a}", "--token", "tok", "-p", std::to_string(server().port()),
                     "--audit-log", dir.path("audit2.jsonl")});
    EXPECT_EQ(ok.code, 0) << ok.err;
}

TEST_F(CliTest, ANulInTheUrlUserIsRefusedWithTheWholeMessage) {
    for (const char* user : {"us%00er", "us%20er", "us%0Aer"}) {
        CliRun r =
            cli({"list", "-u",
                 "redis://" + std::string(user) + "@127.0.0.1:" + std::to_string(server().port())});
        EXPECT_EQ(r.code, 2) << user << ": " << r.err;
        EXPECT_NE(r.err.find("the user name contains a NUL, a space or a control character"),
                  std::string::npos)
            << user << ": " << r.err;
        EXPECT_EQ(r.err.find('\0'), std::string::npos);
    }
}

TEST_F(CliTest, AMissingCaDirectoryIsNamedNotBlamedOnAPlaintextPort) {
    for (const char* command : {"list", "doctor"}) {
        CliRun r = cli({command, "-p", std::to_string(server().port()), "--cacertdir",
                        dir.path("no-such-ca-dir")});
        EXPECT_NE(r.code, 0);
        EXPECT_NE(r.err.find("--cacertdir"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("no such directory"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("plaintext"), std::string::npos) << r.err;
    }
}

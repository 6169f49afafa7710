// Tokens come from a per-thread pool of CSPRNG bytes; what a user relies on is that no two
// tokens repeat — across many draws, across threads, and between a process and its fork.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "lockscope/token.h"

using lockscope::randomToken;

TEST(RandomToken, Is32LowercaseHexDigits) {
    std::string token = randomToken();
    ASSERT_EQ(token.size(), 32u);
    EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(RandomToken, NeverRepeatsAcrossPoolRefillsAndThreads) {
    std::vector<std::vector<std::string>> perThread(4);
    std::vector<std::thread> threads;
    for (auto& tokens : perThread)
        threads.emplace_back([&tokens] {
            for (int i = 0; i < 2000; ++i) tokens.push_back(randomToken());  // ~8 refills
        });
    for (auto& t : threads) t.join();
    std::set<std::string> all;
    for (const auto& tokens : perThread) all.insert(tokens.begin(), tokens.end());
    EXPECT_EQ(all.size(), 8000u);
}

TEST(RandomToken, AForkedChildDoesNotRepeatItsParentsNextTokens) {
    randomToken();  // the pool now holds unused bytes that a naive fork would copy
    int pipeFds[2];
    ASSERT_EQ(pipe(pipeFds), 0);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::string token = randomToken();
        (void)!write(pipeFds[1], token.data(), token.size());
        _exit(0);
    }
    close(pipeFds[1]);
    std::string parentToken = randomToken();
    std::string childToken(32, '\0');
    ASSERT_EQ(read(pipeFds[0], childToken.data(), childToken.size()), 32);
    close(pipeFds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_NE(childToken, parentToken);
}

// The model Redis must answer like a real redis-server: each case runs the same commands
// on both and compares the replies. Expiry is checked in virtual time on the model alone.

#include "lockscope/errors.h"
#include "lockscope/sim/live_redis_backend.h"
#include "lockscope/sim/model_redis.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::sim;
using lockscope::testing::RedisTest;

namespace {

std::vector<RedisCommand> guideCommands() {
    const std::string lock = "lock:{report:daily}", fence = "fence:{report:daily}";
    return {
        RedisCommand::set("lock:report", "1", true, TtlUnit::Seconds, 10),
        RedisCommand::set("lock:report", "1", true, TtlUnit::Seconds, 10),  // nil: taken
        RedisCommand::get("lock:report"),
        RedisCommand::del("lock:report"),
        RedisCommand::del("lock:report"),  // 0: gone
        RedisCommand::get("lock:report"),  // nil
        RedisCommand::setNx("lock:x", "1"),
        RedisCommand::setNx("lock:x", "2"),
        RedisCommand::pttl("lock:x"),  // -1: no TTL
        RedisCommand::pttl("absent"),  // -2
        RedisCommand::expire("absent", 10),
        RedisCommand::incr("counter"),
        RedisCommand::incr("counter"),
        RedisCommand::acquire(lock, fence, "tokenA", 30000),  // 1
        RedisCommand::acquire(lock, fence, "tokenB", 30000),  // 0
        RedisCommand::extend(lock, "tokenB", 30000),          // 0: not B's
        RedisCommand::extend(lock, "tokenA", 30000),          // 1
        RedisCommand::release(lock, "tokenB"),                // 0
        RedisCommand::get(lock),
        RedisCommand::release(lock, "tokenA"),                // 1
        RedisCommand::acquire(lock, fence, "tokenB", 30000),  // 2
        RedisCommand::get(fence),
        RedisCommand::set("plain", "v", false, TtlUnit::None, 0),
        RedisCommand::pttl("plain"),
    };
}

}  // namespace

TEST_F(RedisTest, ModelAnswersLikeRealRedis) {
    Connection connection = connect();
    LiveRedisBackend real(connection, 1000);
    ModelRedis model;
    for (const auto& command : guideCommands()) {
        CommandReply expected = real.execute(command, 0);
        CommandReply got = model.execute(command, 0);
        EXPECT_EQ(got.summary(), expected.summary()) << command.text();
    }
}

// Issue 32: a NOSCRIPT is recognised by the reply's code, not by the word anywhere in the
// message. A server without EVALSHA answers "ERR unknown command 'EVALSHA', with args
// beginning with: ... 'lock:NOSCRIPT'": that is an error to report, not a missing script
// to resend.
class ServerWithoutEvalsha : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        LocalRedisServerOptions options;
        options.configLines.emplace_back("rename-command EVALSHA \"\"");
        return options;
    }
};

TEST_F(ServerWithoutEvalsha, AKeyNamedNoscriptIsNotReadAsAMissingScript) {
    Connection connection = connect();
    LiveRedisBackend real(connection, 1000);
    try {
        const CommandReply reply = real.execute(RedisCommand::release("lock:NOSCRIPT", "t"), 0);
        ADD_FAILURE() << "an unknown EVALSHA answered " << reply.summary();
    } catch (const ReplyError& e) {
        EXPECT_EQ(e.code(), ServerErrorCode::UnknownCommand) << e.what();
    }
}

// Issue 34, item 10: as in Redis 7 (keyIsExpired: now > when), a key lives through the
// millisecond of its deadline (PTTL 0, GET still returns it) and is gone from the next.
TEST(ModelRedis, KeysExpireOnceTheClockPassesTheirDeadline) {
    ModelRedis model;
    model.execute(RedisCommand::set("k", "v", true, TtlUnit::Seconds, 10), 1000);
    EXPECT_EQ(model.pttl("k", 1000), 10000);
    EXPECT_EQ(model.pttl("k", 10999), 1);
    EXPECT_EQ(model.nextDeadline(), 11001);  // the first millisecond it is gone
    EXPECT_EQ(
        model.execute(RedisCommand::set("k", "w", true, TtlUnit::Seconds, 10), 10999).summary(),
        "(nil)");
    EXPECT_EQ(model.pttl("k", 11000), 0);
    EXPECT_EQ(model.execute(RedisCommand::get("k"), 11000).summary(), "\"v\"");
    EXPECT_TRUE(model.expireDue(11000).empty());
    EXPECT_EQ(model.execute(RedisCommand::get("k"), 11001).summary(), "(nil)");
    EXPECT_EQ(model.pttl("k", 11001), -2);
}

TEST(ModelRedis, ExtendMovesTheDeadlineOnlyForTheOwner) {
    ModelRedis model;
    for (const RedisCommand& c :
         {RedisCommand::acquire("l", "f", "me", 200), RedisCommand::extend("l", "me", 200)})
        model.loadScript(c.script()->sha1());  // as an earlier EVAL would have
    model.execute(RedisCommand::acquire("l", "f", "me", 200), 0);
    EXPECT_EQ(model.execute(RedisCommand::extend("l", "other", 200), 150).integer, 0);
    EXPECT_EQ(model.execute(RedisCommand::extend("l", "me", 200), 150).integer, 1);
    EXPECT_EQ(model.pttl("l", 150), 200);
    EXPECT_EQ(model.expireDue(350).size(), 0u);
    EXPECT_EQ(model.expireDue(351), std::vector<std::string>{"l"});
    EXPECT_EQ(model.execute(RedisCommand::acquire("l", "f", "other", 200), 351).integer, 2);
}

TEST(ModelRedis, CommandTextIsWhatAClientSends) {
    EXPECT_EQ(RedisCommand::set("lock:report", "1", true, TtlUnit::Seconds, 10).text(),
              "SET lock:report 1 NX EX 10");
    EXPECT_EQ(RedisCommand::setNx("lock:report", "1").text(), "SETNX lock:report 1");
    std::string acquire = RedisCommand::acquire("lock:{r}", "fence:{r}", "tok", 30000).text();
    EXPECT_TRUE(acquire.starts_with("EVALSHA ")) << acquire;
    EXPECT_TRUE(acquire.ends_with(" 2 lock:{r} fence:{r} tok 30000")) << acquire;
    ASSERT_NE(RedisCommand::release("k", "t").script(), nullptr);
    EXPECT_NE(RedisCommand::release("k", "t").script()->source().find("DEL"), std::string::npos);
}

TEST(ModelRedis, EvalshaOfAnUncachedScriptAnswersNoScriptAndEvalCachesIt) {
    ModelRedis model;
    RedisCommand acquire = RedisCommand::acquire("l", "f", "me", 200);
    EXPECT_EQ(model.execute(acquire, 0).summary(),
              "(error) NOSCRIPT No matching script. Please use EVAL.");
    EXPECT_FALSE(model.peek("l", 0).has_value());  // nothing ran
    RedisCommand eval = acquire;
    eval.sendSource = true;
    EXPECT_TRUE(eval.text().starts_with("EVAL \"")) << eval.text();
    EXPECT_EQ(model.execute(eval, 0).integer, 1);
    EXPECT_TRUE(model.hasScript(acquire.script()->sha1()));
    // Cached now: EVALSHA runs it (the lock is taken, so the script answers 0).
    EXPECT_EQ(model.execute(RedisCommand::acquire("l", "f", "you", 200), 0).summary(),
              "(integer) 0");
}

TEST(ModelRedis, AClockJumpOnOneServerExpiresItsKeysEarly) {
    // The ground for redlock-clock-jump: each model server keeps its own clock.
    ModelRedis steady, jumpy;
    for (ModelRedis* node : {&steady, &jumpy})
        node->execute(RedisCommand::set("k", "v", true, TtlUnit::Millis, 10000), 0);
    jumpy.setClockOffset(8000);  // its clock leaps 8 s forward at t = 1 s
    EXPECT_EQ(steady.pttl("k", 1000), 9000);
    EXPECT_EQ(jumpy.pttl("k", 1000), 1000);
    EXPECT_EQ(jumpy.nextDeadline(), 2001);  // in simulation time, the first ms it is gone
    EXPECT_EQ(jumpy.peek("k", 1000)->deadline, 2000);
    EXPECT_TRUE(jumpy.expireDue(2000).empty());
    EXPECT_EQ(jumpy.expireDue(2001), std::vector<std::string>{"k"});
    EXPECT_TRUE(steady.peek("k", 2000).has_value());
}

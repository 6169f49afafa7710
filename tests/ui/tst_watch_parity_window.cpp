// One engine, the same story, in the window too (issue 32): the same scripted faults on a real
// cluster (a slot moved, a primary killed and failed over to its replica, a lock written on
// the new primary) and on a real Sentinel group (a failover) drive the watch engine as a
// program uses it and the window's ConnectionHub at the same time. The window's signals tell
// the same story as the engine's events: the same failovers, the same moves, each lock on
// the same node, nothing released, and the engine's notes in the command log in its words.
#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <future>
#include <map>
#include <set>

#include "cluster_fixture.h"
#include "cluster_test_keys.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "sentinel_fixture.h"
#include "server_watch_driver.h"
#include "session/connection_hub.h"

using namespace lockscope;
using namespace lockscope::ui;
using namespace std::chrono_literals;
using lockscope::testing::RedisCluster;
using lockscope::testing::SentinelGroup;

namespace {

// What a user reads of a run: failovers, moves, where each lock is at the end, the notes.
struct Story {
    std::set<std::string> failovers;            // "from -> to"
    std::set<std::string> moved;                // "key from node"
    std::map<std::string, std::string> heldOn;  // key -> the instance it was last shown on
    std::set<std::string> removed;
    std::set<std::string> notes;  // describe() of each note
};

// Where the engine shows each lock: the node whose rows held it last, named as the window
// names it, by the server that is its primary now (the last failover's).
Story storyOfEngine(const std::vector<inspect::WatchEvent>& events) {
    using Kind = inspect::WatchEvent::Kind;
    Story s;
    std::map<std::string, std::string> nodeOf, primaryOf;
    for (const auto& e : events) {
        if (e.kind == Kind::Failover) {
            s.failovers.insert(e.from + " -> " + e.to);
            primaryOf[e.node] = e.to;
        }
        if (e.kind == Kind::Note) s.notes.insert(inspect::describe(e.note));
        if (e.kind != Kind::Rows) continue;
        for (const auto& r : e.rows.changed) nodeOf[r.key] = e.node;
        for (const auto& k : e.rows.movedAway) s.moved.insert(k + " from " + e.node);
        for (const auto& k : e.rows.removed) s.removed.insert(k);
    }
    for (const auto& [key, node] : nodeOf)
        s.heldOn[key] = primaryOf.count(node) ? primaryOf.at(node) : node;
    return s;
}

// The window's story, from the hub's signals as the view hears them.
struct WindowStory {
    explicit WindowStory(ConnectionHub& hub) {
        QObject::connect(&hub, &ConnectionHub::failoverSeen,
                         [this](const QString&, const QString& from, const QString& to, qint64) {
                             s.failovers.insert((from + " -> " + to).toStdString());
                         });
        QObject::connect(&hub, &ConnectionHub::locksMoved,
                         [this](const QString& from, const QString& to,
                                const QVector<inspect::LockRecord>& records, const QStringList&) {
                             for (const auto& r : records) {
                                 s.heldOn[r.key] = to.toStdString();
                                 movedBy.emplace_back(r.key, from.toStdString(), to.toStdString());
                             }
                         });
        QObject::connect(
            &hub, &ConnectionHub::locksChanged,
            [this](const QString& instance, const QVector<inspect::SharedLockRecord>& changed,
                   const QStringList& removed, bool) {
                for (const auto& r : changed) s.heldOn[r->key] = instance.toStdString();
                for (const auto& k : removed) s.removed.insert(k.toStdString());
            });
        QObject::connect(&hub, &ConnectionHub::commandsLogged,
                         [this](const QVector<CommandLogEntry>& entries) {
                             for (const auto& e : entries)
                                 if (e.command.startsWith(QStringLiteral("— ")))
                                     s.notes.insert(e.command.mid(2).toStdString());
                         });
    }
    // A slot's move, not the rows following their shard to a promoted replica.
    Story story() const {
        Story out = s;
        for (const auto& [key, from, to] : movedBy) {
            std::string pair = from;
            pair.append(" -> ").append(to);
            if (s.failovers.count(pair)) continue;
            std::string move = key;
            out.moved.insert(move.append(" from ").append(from));
        }
        return out;
    }
    Story s;
    std::vector<std::tuple<std::string, std::string, std::string>> movedBy;
};

// The engine, driven on a thread of its own while the test's thread runs the window's events.
class EngineRun {
  public:
    explicit EngineRun(inspect::ServerWatchOptions o) : engine_(std::move(o)), driver_(engine_) {
        driver_.open();
        run_ = std::async(std::launch::async, [this] {
            driver_.runUntil(
                [this](const auto& ev) {
                    return stop_.load() && lockscope::testing::shown(ev, waitFor_);
                },
                120s);
        });
    }
    // Stops once the engine has shown `key` too (it reads on its own schedule).
    const std::vector<inspect::WatchEvent>& finish(const std::string& key) {
        waitFor_ = key;
        stop_ = true;
        run_.get();
        return driver_.events();
    }

  private:
    inspect::ServerWatch engine_;
    lockscope::testing::ServerWatchDriver driver_;
    std::atomic<bool> stop_{false};
    std::string waitFor_;  // written before stop_ is set, read after
    std::future<void> run_;
};

inspect::WatchOptions fastPolls() {
    inspect::WatchOptions w;
    w.pollInterval = 200ms;
    w.scan.patterns = {"lock:*"};
    return w;
}

bool noteSaid(const Story& s, const std::string& start) {
    for (const auto& n : s.notes)
        if (n.rfind(start, 0) == 0) return true;
    return false;
}

}  // namespace

class WatchParityWindowTest : public QObject {
    Q_OBJECT

  private slots:
    void theWindowAndTheEngineTellTheSameStoryOfAClustersFaults() {
        RedisCluster cluster({.replicas = true});
        const std::string moving = lockscope::testing::keyOnNode(cluster, 0),
                          onKilled = lockscope::testing::keyOnNode(cluster, 1),
                          steady = lockscope::testing::keyOnNode(cluster, 2);
        lockscope::testing::writeLocks(cluster, {moving, onKilled, steady});
        inspect::ServerWatchOptions o;
        o.endpoint = cluster.endpoint(0);
        o.watch = fastPolls();
        EngineRun engine(o);
        ConnectionHub hub(nullptr);
        WindowStory window(hub);
        ConnectionProfile profile =
            ConnectionProfile::create(QStringLiteral("parity"), cluster.endpoint(0));
        hub.open(profile, fastPolls());

        QTest::qWait(2000);
        cluster.moveSlot(int(inspect::keyHashSlot(moving)), 2);  // a slot moved by an operator
        QTest::qWait(1500);
        cluster.node(1).server->stop();  // a node down: its replica (node 4) is promoted
        QTRY_VERIFY_WITH_TIMEOUT(cluster.connect(4).command({"ROLE"})[0].text() == "master", 10000);
        const std::string after = lockscope::testing::keyOnNode(cluster, 1, 7);
        cluster.connect(4).command({"SET", after, "tok-after", "PX", "60000"});
        QTRY_VERIFY_WITH_TIMEOUT(window.s.heldOn.count(after), 10000);
        QTest::qWait(1000);  // the engine's rounds see it too
        const Story fromEngine = storyOfEngine(engine.finish(after));
        const Story fromWindow = window.story();
        hub.closeAll();

        QCOMPARE(fromEngine.failovers,
                 std::set<std::string>{cluster.url(1) + " -> " + cluster.url(4)});
        QCOMPARE(fromWindow.failovers, fromEngine.failovers);
        QCOMPARE(fromEngine.moved, std::set<std::string>{moving + " from " + cluster.url(0)});
        QCOMPARE(fromWindow.moved, fromEngine.moved);
        for (const auto& key : {moving, onKilled, steady, after}) {
            QVERIFY2(fromWindow.heldOn.count(key) && fromEngine.heldOn.count(key), key.c_str());
            QVERIFY2(fromWindow.heldOn.at(key) == fromEngine.heldOn.at(key),
                     (key + ": window " + fromWindow.heldOn.at(key) + ", engine " +
                      fromEngine.heldOn.at(key))
                         .c_str());
        }
        QVERIFY(fromEngine.removed.empty());  // nothing was released
        QCOMPARE(fromWindow.removed, fromEngine.removed);
        // The slot's move is said in the same words (describe()) in the window's log.
        QVERIFY(noteSaid(fromEngine, "cluster topology changed: slot"));
        for (const auto& n : fromEngine.notes)
            if (n.rfind("cluster topology changed: slot", 0) == 0)
                QVERIFY2(fromWindow.notes.count(n), n.c_str());
    }

    void theWindowAndTheEngineTellTheSameStoryOfASentinelFailover() {
        SentinelGroup group;
        {
            Connection c = Connection::open(group.server(0).endpoint());
            c.command({"SET", "lock:{job}", "tok-1", "PX", "120000"});
            c.command({"WAIT", "1", "2000"});
        }
        inspect::ServerWatchOptions o;
        o.sentinel = group.target();
        o.watch = fastPolls();
        EngineRun engine(o);
        ConnectionHub hub(nullptr);
        WindowStory window(hub);
        hub.open(ConnectionProfile::createForSentinel(QStringLiteral("parity (Sentinel)"),
                                                      QString::fromStdString(group.url())),
                 fastPolls());
        QTRY_VERIFY_WITH_TIMEOUT(window.s.heldOn.count("lock:{job}"), 10000);
        group.failover();
        Connection::open(group.server(1).endpoint())
            .command({"SET", "lock:{after}", "tok-2", "PX", "120000"});
        QTRY_VERIFY_WITH_TIMEOUT(window.s.heldOn.count("lock:{after}"), 15000);
        QTest::qWait(1000);
        const Story fromEngine = storyOfEngine(engine.finish("lock:{after}"));
        const Story fromWindow = window.story();
        hub.closeAll();

        QCOMPARE(fromEngine.failovers,
                 std::set<std::string>{group.server(0).endpoint().display() + " -> " +
                                       group.server(1).endpoint().display()});
        QCOMPARE(fromWindow.failovers, fromEngine.failovers);
        // Behind Sentinel the window's rows stay under the service: the same locks, held.
        for (const std::string key : {"lock:{job}", "lock:{after}"})
            QVERIFY2(fromEngine.heldOn.count(key) && fromWindow.heldOn.count(key), key.c_str());
        QCOMPARE(fromWindow.removed, fromEngine.removed);
        QVERIFY(noteSaid(fromEngine, "Sentinel: the primary of"));
        for (const auto& n : fromEngine.notes) QVERIFY2(fromWindow.notes.count(n), n.c_str());
    }
};

QTEST_MAIN(WatchParityWindowTest)
#include "tst_watch_parity_window.moc"

#include "session/sandbox_session.h"

#include <QFutureWatcher>

#include "lockscope/errors.h"
#include "lockscope/sandbox/demo_workload.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "support/pool_run.h"

namespace lockscope::ui {
namespace {

struct Started {
    std::shared_ptr<LocalRedisServer> server;
    std::shared_ptr<DemoWorkload> workload;
    QString error;
};

Started startSandbox() {
    try {
        auto server = std::make_shared<LocalRedisServer>();
        auto workload = std::make_shared<DemoWorkload>(server->endpoint());
        return {server, workload, {}};
    } catch (const std::exception& e) {
        return {nullptr, nullptr, QString::fromStdString(e.what())};
    }
}

}  // namespace

SandboxSession::SandboxSession(QObject* parent) : QObject(parent) {}

SandboxSession::~SandboxSession() {
    workload_.reset();  // holders stop before their server does
    server_.reset();
}

Endpoint SandboxSession::endpoint() const {
    return server_ ? server_->endpoint() : Endpoint{};
}

void SandboxSession::start() {
    if (server_ || starting_) return;
    starting_ = true;
    auto* watcher = new QFutureWatcher<Started>(this);
    connect(watcher, &QFutureWatcher<Started>::finished, this, [this, watcher] {
        Started s = watcher->result();
        watcher->deleteLater();
        starting_ = false;
        if (!s.server) {
            emit failed(s.error);
            return;
        }
        server_ = s.server;
        workload_ = s.workload;
        emit started(QString::fromStdString(server_->url()));
    });
    watcher->setFuture(runOnPool(startSandbox));
}

}  // namespace lockscope::ui

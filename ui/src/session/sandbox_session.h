#pragma once
// The embedded default: a private redis-server on a free loopback port with the demo
// workload, started off the GUI thread and stopped with the application.

#include <QObject>
#include <QString>
#include <memory>

#include "lockscope/endpoint.h"

namespace lockscope {
class LocalRedisServer;
class DemoWorkload;
}  // namespace lockscope

namespace lockscope::ui {

class SandboxSession : public QObject {
    Q_OBJECT
  public:
    explicit SandboxSession(QObject* parent = nullptr);
    ~SandboxSession() override;

    void start();  // emits started() or failed()
    bool isRunning() const { return server_ != nullptr; }
    Endpoint endpoint() const;

  signals:
    void started(const QString& url);
    void failed(const QString& reason);

  private:
    std::shared_ptr<LocalRedisServer> server_;
    std::shared_ptr<DemoWorkload> workload_;
    bool starting_ = false;
};

}  // namespace lockscope::ui

#pragma once
// The exporter's HTTP server (civetweb, the server under prometheus-cpp's exposer): GET
// /metrics (the exporter's own metrics and its -u instances) and GET /scrape?target=… (one
// target's metrics, Prometheus's multi-target convention). Neither handler waits for a
// server: both read the last complete census.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "scrape_target_registry.h"

class CivetServer;

namespace lockscope::exporter {

struct HttpRoutes {
    std::function<std::string()> metrics;
    std::function<ScrapeAnswer(const std::optional<std::string>& target)> scrape;
};

class ExporterHttpServer {
  public:
    // Binds `listen` (host:port, port 0 picks one) and starts serving. Throws
    // InvalidArgumentError when it cannot listen there.
    ExporterHttpServer(const std::string& listen, HttpRoutes routes);
    ~ExporterHttpServer();
    ExporterHttpServer(const ExporterHttpServer&) = delete;
    ExporterHttpServer& operator=(const ExporterHttpServer&) = delete;

    int port() const;

  private:
    class MetricsHandler;
    class ScrapeHandler;
    HttpRoutes routes_;
    std::unique_ptr<MetricsHandler> metricsHandler_;
    std::unique_ptr<ScrapeHandler> scrapeHandler_;
    std::unique_ptr<CivetServer> server_;
};

}  // namespace lockscope::exporter

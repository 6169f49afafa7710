#include "exporter_http_server.h"

#include <CivetServer.h>

#include <cstring>

#include "lockscope/errors.h"

namespace lockscope::exporter {
namespace {

constexpr int kServerThreads = 16;
constexpr int kRequestTimeoutMs = 3000;
// A target is at most fleet::kMaxTargetLength characters, percent-encoded at most three
// times longer; a longer query is refused before it is decoded.
constexpr std::size_t kMaxQueryLength = 3 * fleet::kMaxTargetLength + 64;
const char* const kTextFormat = "text/plain; version=0.0.4; charset=utf-8";

// civetweb serves each connection on one worker thread until the request is read and
// answered. prometheus-cpp's default of 2 workers and civetweb's 30 s request timeout let two
// idle sockets keep every scrape out for 30 s, and two clients sending a header line every 2 s
// hold it for good. So: more workers than a few stray connections, and a request must arrive
// whole within a few seconds (the clock runs from the connection's first byte wait, so
// dripping headers does not reset it).
std::vector<std::string> serverOptions(const std::string& listen) {
    return {"listening_ports",    listen,
            "num_threads",        std::to_string(kServerThreads),
            "request_timeout_ms", std::to_string(kRequestTimeoutMs),
            "enable_keep_alive",  "no"};
}

const char* reasonPhrase(int status) {
    switch (status) {
        case 200:
            return "OK";
        case 400:
            return "Bad Request";
        case 403:
            return "Forbidden";
        case 414:
            return "URI Too Long";
        case 503:
            return "Service Unavailable";
        default:
            return "Error";
    }
}

void respond(mg_connection* conn, int status, const std::string& body,
             const char* contentType = "text/plain; charset=utf-8") {
    mg_printf(conn,
              "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
              "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
              status, reasonPhrase(status), contentType, body.size());
    mg_write(conn, body.data(), body.size());
}

}  // namespace

class ExporterHttpServer::MetricsHandler : public CivetHandler {
  public:
    explicit MetricsHandler(const HttpRoutes& routes) : routes_(routes) {}
    bool handleGet(CivetServer* /*server*/, mg_connection* conn) override {
        respond(conn, 200, routes_.metrics(), kTextFormat);
        return true;
    }

  private:
    const HttpRoutes& routes_;
};

class ExporterHttpServer::ScrapeHandler : public CivetHandler {
  public:
    explicit ScrapeHandler(const HttpRoutes& routes) : routes_(routes) {}
    bool handleGet(CivetServer* /*server*/, mg_connection* conn) override {
        const mg_request_info* info = mg_get_request_info(conn);
        const char* query = info && info->query_string ? info->query_string : "";
        if (std::strlen(query) > kMaxQueryLength) {
            respond(conn, 414,
                    "the query is longer than " + std::to_string(kMaxQueryLength) +
                        " characters; give one target: /scrape?target=redis://host:port\n");
            return true;
        }
        std::string target, second;
        std::optional<std::string> named;
        if (CivetServer::getParam(conn, "target", target)) named = target;
        if (named && CivetServer::getParam(conn, "target", second, 1)) {
            respond(conn, 400, "give one target parameter, not several\n");
            return true;
        }
        ScrapeAnswer answer = routes_.scrape(named);
        respond(conn, answer.status, answer.body,
                answer.status == 200 ? kTextFormat : "text/plain; charset=utf-8");
        return true;
    }

  private:
    const HttpRoutes& routes_;
};

ExporterHttpServer::ExporterHttpServer(const std::string& listen, HttpRoutes routes)
    : routes_(std::move(routes)),
      metricsHandler_(std::make_unique<MetricsHandler>(routes_)),
      scrapeHandler_(std::make_unique<ScrapeHandler>(routes_)) {
    try {
        server_ = std::make_unique<CivetServer>(serverOptions(listen));
    } catch (const std::exception& e) {
        throw InvalidArgumentError("cannot listen on " + listen + ": " + e.what());
    }
    // "$": the exact path, so /metricsfoo is not /metrics.
    server_->addHandler("/metrics$", *metricsHandler_);
    server_->addHandler("/scrape$", *scrapeHandler_);
}

ExporterHttpServer::~ExporterHttpServer() {
    if (server_) server_->close();  // the workers end before the handlers go
}

int ExporterHttpServer::port() const {
    auto ports = server_->getListeningPorts();
    return ports.empty() ? 0 : ports.front();
}

}  // namespace lockscope::exporter

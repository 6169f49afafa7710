#include "bench_tls.h"

#include <unistd.h>

#include <filesystem>

namespace lockscope::bench {

namespace {

// The directory lives as long as the bench process and is removed when it ends.
struct CertificateDirectory {
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("lockscope-bench-tls-" + std::to_string(getpid()));
    TlsCertificateSet certs;
    CertificateDirectory() {
        std::filesystem::create_directories(dir);
        certs = writeTlsCertificates(dir.string());
    }
    CertificateDirectory(const CertificateDirectory&) = delete;
    CertificateDirectory& operator=(const CertificateDirectory&) = delete;
    ~CertificateDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }
};

}  // namespace

const TlsCertificateSet& benchCertificates() {
    static const CertificateDirectory directory;
    return directory.certs;
}

DualPortServer::DualPortServer(std::vector<std::string> extraConfig) : tlsPort_(findFreePort()) {
    const auto& certs = benchCertificates();
    // tls-auth-clients no: the benches compare encryption, not client certificates.
    std::vector<std::string> config = {"tls-port " + std::to_string(tlsPort_),
                                       "tls-cert-file " + certs.serverCert,
                                       "tls-key-file " + certs.serverKey,
                                       "tls-ca-cert-file " + certs.caCert, "tls-auth-clients no"};
    config.insert(config.end(), extraConfig.begin(), extraConfig.end());
    server_ = std::make_unique<LocalRedisServer>(LocalRedisServerOptions{.configLines = config});
}

Endpoint DualPortServer::tls() const {
    Endpoint e = parseEndpoint(tlsUrl());
    e.tls.caFile = benchCertificates().caCert;
    return e;
}

}  // namespace lockscope::bench

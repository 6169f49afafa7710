#include "tls_fixture.h"

namespace lockscope::testing {

const TlsCertificateSet& testCertificates() {
    static TempDir dir;  // removed when the test process exits
    static TlsCertificateSet set =
        writeTlsCertificates(dir.path("").substr(0, dir.path("").size() - 1));
    return set;
}

LocalRedisTls serverTls(const std::string& cert, const std::string& key, bool requireClientCert) {
    return {cert, key, testCertificates().caCert, requireClientCert};
}

}  // namespace lockscope::testing

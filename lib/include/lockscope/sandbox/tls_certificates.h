#pragma once
// Certificates for private TLS servers, made with OpenSSL's C API: a CA, a server
// certificate for localhost and 127.0.0.1, a client certificate for mutual TLS, and the bad
// ones the TLS tests need (expired, for another host name, from another CA). EC P-256 keys:
// quick to make on every test run and every `lockscope-cli sandbox --tls`.

#include <string>

namespace lockscope {

struct TlsCertificateSet {
    std::string caCert;                       // the CA every good certificate below chains to
    std::string serverCert, serverKey;        // CN=localhost, SAN localhost, 127.0.0.1, ::1
    std::string clientCert, clientKey;        // CN=lockscope-client, for mutual TLS
    std::string expiredCert, expiredKey;      // the server's names, expired a day ago
    std::string otherHostCert, otherHostKey;  // SAN db.example.com only
    std::string foreignCaCert;                // an unrelated CA
    std::string foreignServerCert, foreignServerKey;  // localhost, signed by the foreign CA
    std::string foreignClientCert, foreignClientKey;  // a client cert the server's CA did not sign
};

// Writes the set as PEM files into `directory` (which must exist). Throws ProcessError.
TlsCertificateSet writeTlsCertificates(const std::string& directory);

}  // namespace lockscope

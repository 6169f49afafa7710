#include "lockscope/sandbox/tls_certificates.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <memory>

#include "lockscope/errors.h"

namespace lockscope {
namespace {

using KeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using CertPtr = std::unique_ptr<X509, decltype(&X509_free)>;

constexpr long kDay = 24L * 3600;

[[noreturn]] void fail(const std::string& what) {
    throw ProcessError("cannot make TLS certificates: " + what);
}

KeyPtr newKey() {
    KeyPtr key(EVP_EC_gen("P-256"), EVP_PKEY_free);
    if (!key) fail("EC key generation failed");
    return key;
}

void addExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    if (!ext) fail("bad extension " + value);
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
}

struct CertSpec {
    std::string commonName;
    std::string subjectAltName;  // "DNS:localhost,IP:127.0.0.1"; empty for a CA
    bool isCa = false;
    long validFrom = -kDay;  // seconds from now
    long validTo = 3650 * kDay;
};

// Signs `key`'s certificate with issuerKey (self-signed when issuer is null).
CertPtr makeCert(const CertSpec& spec, EVP_PKEY* key, X509* issuer, EVP_PKEY* issuerKey) {
    static long serial = 1;
    CertPtr cert(X509_new(), X509_free);
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()),
                     ++serial + static_cast<long>(time(nullptr)));
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), spec.validFrom);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), spec.validTo);
    X509_set_pubkey(cert.get(), key);
    X509_NAME* name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("LockScope test"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>(spec.commonName.c_str()), -1,
                               -1, 0);
    X509* signer = issuer ? issuer : cert.get();
    X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
    if (spec.isCa) {
        addExtension(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE");
        addExtension(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
    } else {
        addExtension(cert.get(), signer, NID_basic_constraints, "CA:FALSE");
        addExtension(cert.get(), signer, NID_ext_key_usage, "serverAuth,clientAuth");
    }
    addExtension(cert.get(), signer, NID_subject_key_identifier, "hash");
    if (!spec.subjectAltName.empty())
        addExtension(cert.get(), signer, NID_subject_alt_name, spec.subjectAltName);
    if (X509_sign(cert.get(), issuerKey ? issuerKey : key, EVP_sha256()) == 0)
        fail("signing " + spec.commonName);
    return cert;
}

void writeCert(const std::string& path, X509* cert) {
    std::unique_ptr<FILE, decltype(&fclose)> f(fopen(path.c_str(), "w"), fclose);
    if (!f || PEM_write_X509(f.get(), cert) != 1) fail("writing " + path);
}

void writeKey(const std::string& path, EVP_PKEY* key) {
    std::unique_ptr<FILE, decltype(&fclose)> f(fopen(path.c_str(), "w"), fclose);
    if (!f || PEM_write_PrivateKey(f.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        fail("writing " + path);
}

// Makes one leaf certificate and its key, signed by the CA, and writes both.
void leaf(const std::string& dir, const std::string& name, const CertSpec& spec, X509* ca,
          EVP_PKEY* caKey, std::string& certPath, std::string& keyPath) {
    KeyPtr key = newKey();
    CertPtr cert = makeCert(spec, key.get(), ca, caKey);
    certPath = dir + "/" + name + ".crt";
    keyPath = dir + "/" + name + ".key";
    writeCert(certPath, cert.get());
    writeKey(keyPath, key.get());
}

}  // namespace

TlsCertificateSet writeTlsCertificates(const std::string& dir) {
    TlsCertificateSet set;
    const std::string localNames = "DNS:localhost,IP:127.0.0.1,IP:::1";
    KeyPtr caKey = newKey();
    CertPtr ca = makeCert({"LockScope Test CA", "", true}, caKey.get(), nullptr, nullptr);
    set.caCert = dir + "/ca.crt";
    writeCert(set.caCert, ca.get());
    leaf(dir, "server", {"localhost", localNames}, ca.get(), caKey.get(), set.serverCert,
         set.serverKey);
    leaf(dir, "client", {"lockscope-client", "DNS:lockscope-client"}, ca.get(), caKey.get(),
         set.clientCert, set.clientKey);
    leaf(dir, "expired", {"localhost", localNames, false, -30 * kDay, -kDay}, ca.get(), caKey.get(),
         set.expiredCert, set.expiredKey);
    leaf(dir, "other-host", {"db.example.com", "DNS:db.example.com"}, ca.get(), caKey.get(),
         set.otherHostCert, set.otherHostKey);

    KeyPtr foreignKey = newKey();
    CertPtr foreign = makeCert({"Some Other CA", "", true}, foreignKey.get(), nullptr, nullptr);
    set.foreignCaCert = dir + "/foreign-ca.crt";
    writeCert(set.foreignCaCert, foreign.get());
    leaf(dir, "foreign-server", {"localhost", localNames}, foreign.get(), foreignKey.get(),
         set.foreignServerCert, set.foreignServerKey);
    leaf(dir, "foreign-client", {"intruder", "DNS:intruder"}, foreign.get(), foreignKey.get(),
         set.foreignClientCert, set.foreignClientKey);
    return set;
}

}  // namespace lockscope

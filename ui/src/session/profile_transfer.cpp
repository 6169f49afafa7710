#include "session/profile_transfer.h"

#include <QDir>
#include <QFile>
#include <QUrl>

#include "lockscope/errors.h"

namespace lockscope::ui {
namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

// Writes one embedded certificate or key beside the others of the profile, owner-only.
std::string writePem(const std::string& pem, const QString& dir, const QString& file) {
    if (pem.empty()) return {};
    if (!QDir().mkpath(dir)) throw Error(ErrorKind::Storage, "cannot create " + dir.toStdString());
    QFile out(QDir(dir).filePath(file));
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        !out.setPermissions(QFile::ReadOwner | QFile::WriteOwner) ||
        out.write(pem.data(), static_cast<qint64>(pem.size())) != static_cast<qint64>(pem.size()))
        throw Error(ErrorKind::Storage, "cannot write " + out.fileName().toStdString() + ": " +
                                            out.errorString().toStdString());
    return out.fileName().toStdString();
}

QString sentinelUrl(const fleet::PortableConnection& c) {
    SentinelTarget target;
    target.sentinels = c.sentinels;
    target.service = c.sentinelService;
    target.data = c.endpoint;
    QString url = text(target.display());
    if (!c.sentinelUser.empty()) {
        // The Sentinels' user rides in the URL's query, as the connection dialog writes it.
        auto hash = url.indexOf('#');
        url.insert(hash, "?sentinel-user=" + QUrl::toPercentEncoding(text(c.sentinelUser)));
    }
    return url;
}

}  // namespace

ImportedProfile importedProfile(const fleet::PortableConnection& c, const QString& certificateDir) {
    ImportedProfile imported;
    auto& p = imported.profile;
    p = ConnectionProfile::create(text(c.name), c.endpoint);
    p.endpoint.password.clear();
    p.readOnly = c.readOnly;
    p.group = text(c.group);
    if (!c.patterns.empty()) {
        p.patterns.clear();
        for (const auto& pattern : c.patterns) p.patterns << text(pattern);
    }
    auto& tls = p.endpoint.tls;
    if (auto ca = writePem(c.pem.ca, certificateDir, p.id + "-ca.pem"); !ca.empty())
        tls.caFile = ca;
    if (auto cert = writePem(c.pem.cert, certificateDir, p.id + "-cert.pem"); !cert.empty())
        tls.certFile = cert;
    if (auto key = writePem(c.pem.key, certificateDir, p.id + "-key.pem"); !key.empty())
        tls.keyFile = key;
    if (c.topology == fleet::Topology::Sentinel) p.sentinelUrl = sentinelUrl(c);
    imported.password = text(c.password);
    imported.sentinelPassword = text(c.sentinelPassword);
    p.needsPassword = !imported.password.isEmpty();
    p.needsSentinelPassword = !imported.sentinelPassword.isEmpty();
    return imported;
}

QList<fleet::PortableConnection> portableConnections(const QList<ConnectionProfile>& profiles) {
    QList<fleet::PortableConnection> out;
    for (const auto& p : profiles) {
        if (p.isSandbox) continue;
        fleet::PortableConnection c;
        c.name = p.name.toStdString();
        c.group = p.group.toStdString();
        c.endpoint = p.endpoint;
        c.endpoint.password.clear();
        c.endpoint.tls.keyPassphrase.clear();
        c.readOnly = p.readOnly;
        for (const auto& pattern : p.patterns) c.patterns.push_back(pattern.toStdString());
        if (!p.sentinelUrl.isEmpty()) {
            auto target = parseSentinelUrl(p.sentinelUrlToSave().toStdString());
            c.topology = fleet::Topology::Sentinel;
            c.sentinels = target.sentinels;
            c.sentinelService = target.service;
            c.sentinelUser = target.sentinelUser;
            c.endpoint.host = target.sentinels.front().host;
            c.endpoint.port = target.sentinels.front().port;
        }
        out.append(std::move(c));
    }
    return out;
}

}  // namespace lockscope::ui

#include "widgets/connection_test.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>

#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "lockscope/sentinel.h"

namespace lockscope::ui {
namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

QString describeTls(const TlsSessionInfo& tls) {
    QStringList lines;
    lines << QObject::tr("TLS: %1, %2").arg(text(tls.protocol), text(tls.cipher));
    lines << QObject::tr("Server certificate: %1, issued by %2")
                 .arg(text(tls.subject), text(tls.issuer));
    lines << QObject::tr("Valid until %1; for %2").arg(text(tls.notAfter), text(tls.names));
    if (!tls.verified)
        lines << QObject::tr(
            "⚠ NOT VERIFIED: verification is off, this certificate was not "
            "checked");
    return lines.join('\n');
}

}  // namespace

ConnectionTestOutcome testConnection(const Endpoint& endpoint) {
    QElapsedTimer timer;
    timer.start();
    try {
        Connection c =
            Connection::open(endpoint, {.connectTimeout = std::chrono::milliseconds(3000),
                                        .commandTimeout = std::chrono::milliseconds(3000)});
        Reply pong = c.command({"PING"});
        QString message = QObject::tr("Connected to %1: %2 in %3 ms")
                              .arg(text(endpoint.display()), text(std::string(pong.text())))
                              .arg(timer.elapsed());
        if (auto tls = c.tlsSession()) message += '\n' + describeTls(*tls);
        return {true, message};
    } catch (const Error& e) {
        return {false, QString::fromStdString(e.what())};
    }
}

ConnectionTestOutcome testSentinelConnection(const SentinelTarget& target) {
    try {
        const Endpoint primary =
            discoverPrimary(target, {.connectTimeout = std::chrono::milliseconds(3000),
                                     .commandTimeout = std::chrono::milliseconds(3000)});
        ConnectionTestOutcome outcome = testConnection(primary);
        if (outcome.ok)
            outcome.message.prepend(QObject::tr("Sentinel: the primary of %1 is %2\n")
                                        .arg(text(target.service), text(primary.display())));
        return outcome;
    } catch (const Error& e) {
        return {false, QString::fromStdString(e.what())};
    }
}

}  // namespace lockscope::ui

#include "widgets/connection_secrets.h"

#include <QInputDialog>
#include <QLineEdit>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

#include "lockscope/errors.h"
#include "session/password_vault.h"

namespace lockscope::ui {
namespace {

// The Sentinels' password the profile holds now: typed into its URL (?sentinel-password=) or
// filled in at connect.
QString sentinelPasswordAtHand(const ConnectionProfile& p) {
    if (p.sentinelUrl.isEmpty()) return {};
    if (!p.sentinelPassword.isEmpty()) return p.sentinelPassword;
    try {
        return QString::fromStdString(p.sentinelTarget().sentinelPassword);
    } catch (const Error&) {
        return {};  // a URL that does not parse reaches no Sentinel either
    }
}

}  // namespace

ConnectionSecrets::ConnectionSecrets(PasswordVault& vault, QWidget* window)
    : QObject(window), vault_(vault), window_(window) {}

void ConnectionSecrets::keep(ConnectionProfile& p, bool remember) {
    const QString passphrase = QString::fromStdString(p.endpoint.tls.keyPassphrase);
    p.needsKeyPassphrase = p.needsKeyPassphrase || !passphrase.isEmpty();
    if (!passphrase.isEmpty() && remember)
        vault_.store(PasswordVault::keyPassphraseId(p.id), passphrase,
                     [this](bool stored, const QString& why) {
                         if (!stored)
                             emit notStored(tr("TLS key passphrase not stored (no keychain: %1); "
                                               "it will be asked for at connect")
                                                .arg(why));
                     });
    const QString sentinelPassword = sentinelPasswordAtHand(p);
    p.needsSentinelPassword =
        !p.sentinelUrl.isEmpty() && (p.needsSentinelPassword || !sentinelPassword.isEmpty());
    if (!sentinelPassword.isEmpty() && remember)
        vault_.store(PasswordVault::sentinelPasswordId(p.id), sentinelPassword,
                     [this](bool stored, const QString& why) {
                         if (!stored)
                             emit notStored(tr("Sentinel password not stored (no keychain: %1); "
                                               "it will be asked for at connect")
                                                .arg(why));
                     });
}

void ConnectionSecrets::gather(const ConnectionProfile& p, bool mayAsk,
                               std::function<void(const ConnectionProfile&)> open) {
    // Each fill also clears what the profile needs, so an empty answer does not ask again:
    // the connection then reports the server's refusal.
    if (p.needsKeyPassphrase && p.endpoint.tls.keyPassphrase.empty()) {
        fetch(
            p, PasswordVault::keyPassphraseId(p.id), tr("TLS key passphrase"),
            tr("Passphrase of %1:").arg(QString::fromStdString(p.endpoint.tls.keyFile)), mayAsk,
            [](ConnectionProfile& c, const QString& s) {
                c.endpoint.tls.keyPassphrase = s.toStdString();
                c.needsKeyPassphrase = false;
            },
            std::move(open));
        return;
    }
    if (p.needsSentinelPassword && sentinelPasswordAtHand(p).isEmpty()) {
        fetch(
            p, PasswordVault::sentinelPasswordId(p.id), tr("Sentinel password"),
            tr("Password of the Sentinels of %1:").arg(p.displayUrl()), mayAsk,
            [](ConnectionProfile& c, const QString& s) {
                c.sentinelPassword = s;
                c.needsSentinelPassword = false;
            },
            std::move(open));
        return;
    }
    open(p);
}

void ConnectionSecrets::fetch(const ConnectionProfile& profile, const QString& vaultId,
                              const QString& title, const QString& label, bool mayAsk,
                              std::function<void(ConnectionProfile&, const QString&)> fill,
                              std::function<void(const ConnectionProfile&)> open) {
    vault_.load(vaultId, [this, copy = profile, title, label, mayAsk, fill = std::move(fill),
                          open = std::move(open)](std::optional<QString> stored) mutable {
        if (!stored && !mayAsk) return;
        if (!stored) {
            bool ok = false;
            const QString typed =
                QInputDialog::getText(window_, title, label, QLineEdit::Password, QString(), &ok);
            if (!ok) return;
            stored = typed;
        }
        fill(copy, *stored);
        gather(copy, mayAsk, std::move(open));
    });
}

struct ConnectionSecrets::Recalled {
    struct Need {
        QString vaultId;
        QString name;  // as the operator knows it, for "could not be read"
        std::function<void(ConnectionProfile&, const QString&)> fill;
    };
    ConnectionProfile profile;
    std::vector<Need> needs;
    std::size_t next = 0;
    QStringList unread;
    QString why;
    std::function<void(const ConnectionProfile&, const QString&)> done;
};

void ConnectionSecrets::recall(
    const ConnectionProfile& p,
    std::function<void(const ConnectionProfile&, const QString& unread)> done) {
    auto state = std::make_shared<Recalled>();
    state->profile = p;
    state->done = std::move(done);
    if (p.needsPassword && p.endpoint.password.empty())
        state->needs.push_back({p.id, tr("password"), [](ConnectionProfile& c, const QString& s) {
                                    c.endpoint.password = s.toStdString();
                                }});
    if (p.needsKeyPassphrase && p.endpoint.tls.keyPassphrase.empty() &&
        !p.endpoint.tls.keyFile.empty())
        state->needs.push_back({PasswordVault::keyPassphraseId(p.id), tr("TLS key passphrase"),
                                [](ConnectionProfile& c, const QString& s) {
                                    c.endpoint.tls.keyPassphrase = s.toStdString();
                                }});
    if (p.needsSentinelPassword && sentinelPasswordAtHand(p).isEmpty())
        state->needs.push_back(
            {PasswordVault::sentinelPasswordId(p.id), tr("Sentinel password"),
             [](ConnectionProfile& c, const QString& s) { c.sentinelPassword = s; }});
    recallNext(state);
}

void ConnectionSecrets::recallNext(const std::shared_ptr<Recalled>& state) {
    if (state->next == state->needs.size()) {
        QString unread;
        if (!state->unread.isEmpty())
            unread = tr("The saved %1 could not be read from the keychain (%2): type %3 and "
                        "test again")
                         .arg(state->unread.join(tr(" and ")), state->why,
                              state->unread.size() == 1 ? tr("it") : tr("them"));
        state->done(state->profile, unread);
        return;
    }
    const Recalled::Need& need = state->needs[state->next++];
    vault_.read(need.vaultId, [this, state, fill = need.fill, name = need.name](
                                  std::optional<QString> stored, const QString& why) {
        if (stored) {
            fill(state->profile, *stored);
        } else {
            state->unread << name;
            state->why = why.isEmpty() ? tr("nothing stored") : why;
        }
        recallNext(state);
    });
}

void ConnectionSecrets::forget(const QString& profileId) {
    vault_.forget(PasswordVault::keyPassphraseId(profileId));
    vault_.forget(PasswordVault::sentinelPasswordId(profileId));
}

}  // namespace lockscope::ui

#include "session/password_vault.h"

#ifdef LOCKSCOPE_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace lockscope::ui {

#ifdef LOCKSCOPE_HAVE_KEYCHAIN
namespace {

// The keychain's reason in words an operator can act on: QtKeychain's own text is at times
// only "Unknown error" (a read with no Secret Service behind D-Bus).
QString reason(const QKeychain::Job* job) {
    const QString said = job->errorString();
    const bool vague = said.isEmpty() || said == QStringLiteral("Unknown error");
    switch (job->error()) {
        case QKeychain::EntryNotFound:
            return PasswordVault::tr("nothing stored");
        case QKeychain::AccessDeniedByUser:
        case QKeychain::AccessDenied:
            return vague ? PasswordVault::tr("access denied") : said;
        default:  // no backend, or no Secret Service behind D-Bus
            return vague ? PasswordVault::tr("no keychain service answers") : said;
    }
}

}  // namespace

void PasswordVault::store(const QString& profileId, const QString& password,
                          std::function<void(bool, QString)> done) {
    auto* job = new QKeychain::WritePasswordJob(serviceName(), this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);  // never a plain-text file
    job->setKey(profileId);
    job->setTextData(password);
    connect(job, &QKeychain::Job::finished, this, [done = std::move(done)](QKeychain::Job* j) {
        done(j->error() == QKeychain::NoError, j->errorString());
    });
    job->start();
}

void PasswordVault::load(const QString& profileId,
                         std::function<void(std::optional<QString>)> done) {
    read(profileId, [done = std::move(done)](std::optional<QString> password, const QString&) {
        done(std::move(password));
    });
}

void PasswordVault::read(const QString& profileId,
                         std::function<void(std::optional<QString>, QString)> done) {
    auto* job = new QKeychain::ReadPasswordJob(serviceName(), this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(profileId);
    connect(job, &QKeychain::Job::finished, this, [done = std::move(done)](QKeychain::Job* j) {
        auto* read = static_cast<QKeychain::ReadPasswordJob*>(j);
        if (j->error() == QKeychain::NoError)
            done(read->textData(), QString());
        else
            done(std::nullopt, reason(j));
    });
    job->start();
}

void PasswordVault::forget(const QString& profileId) {
    auto* job = new QKeychain::DeletePasswordJob(serviceName(), this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(profileId);
    job->start();
}

#else

void PasswordVault::store(const QString&, const QString&, std::function<void(bool, QString)> done) {
    done(false, tr("LockScope was built without QtKeychain"));
}
void PasswordVault::load(const QString&, std::function<void(std::optional<QString>)> done) {
    done(std::nullopt);
}
void PasswordVault::read(const QString&,
                         std::function<void(std::optional<QString>, QString)> done) {
    done(std::nullopt, tr("LockScope was built without QtKeychain"));
}
void PasswordVault::forget(const QString&) {}

#endif

}  // namespace lockscope::ui

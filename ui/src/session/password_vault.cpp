#include "session/password_vault.h"

#ifdef LOCKSCOPE_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace lockscope::ui {

#ifdef LOCKSCOPE_HAVE_KEYCHAIN

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
    auto* job = new QKeychain::ReadPasswordJob(serviceName(), this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(profileId);
    connect(job, &QKeychain::Job::finished, this, [done = std::move(done)](QKeychain::Job* j) {
        auto* read = static_cast<QKeychain::ReadPasswordJob*>(j);
        if (j->error() == QKeychain::NoError)
            done(read->textData());
        else
            done(std::nullopt);
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
void PasswordVault::forget(const QString&) {}

#endif

}  // namespace lockscope::ui

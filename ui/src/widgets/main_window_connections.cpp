// MainWindow's connection management: add, edit, duplicate, remove, connect (with the
// password from the keychain or asked for), the sandbox, Discover and the watch options.
#include <QInputDialog>
#include <QLineEdit>
#include <QSettings>
#include <QStatusBar>
#include <algorithm>

#include "session/connection_hub.h"
#include "session/password_vault.h"
#include "session/profile_store.h"
#include "session/sandbox_session.h"
#include "widgets/connection_dialog.h"
#include "widgets/connection_groups.h"
#include "widgets/connection_secrets.h"
#include "widgets/connection_sidebar.h"
#include "widgets/discover_dialog.h"
#include "widgets/main_window.h"

namespace lockscope::ui {

void MainWindow::startSandbox() {
    showInspector();
    if (sandbox_->isRunning()) return;
    statusBar()->showMessage(tr("Starting the local sandbox…"));
    sandbox_->start();
}

void MainWindow::saveProfiles() {
    ProfileStore store(settings_);
    store.save(sidebar_->profiles());
}

void MainWindow::addConnection() {
    ConnectionDialog dialog(this);
    dialog.setKnownGroups(knownGroups(sidebar_->profiles()));
    if (dialog.exec() != QDialog::Accepted) return;
    ConnectionProfile p = dialog.profile();
    QString password = QString::fromStdString(p.endpoint.password);
    p.needsPassword = !password.isEmpty();
    if (p.needsPassword && dialog.rememberPassword()) {
        vault_->store(p.id, password, [this](bool stored, const QString& why) {
            if (!stored)
                statusBar()->showMessage(
                    tr("Password not stored (no keychain: %1); it will be asked for at connect")
                        .arg(why),
                    8000);
        });
    }
    secrets_->keep(p, dialog.rememberPassword());
    sidebar_->addProfile(p);
    saveProfiles();
    showInspector();
    openWithPassword(p);  // this time with the password just typed
}

void MainWindow::editConnection(const QString& id) {
    const ConnectionProfile* current = sidebar_->profile(id);
    if (!current || current->isSandbox) return;
    ConnectionDialog dialog(this);
    dialog.setProfile(*current);
    dialog.setKnownGroups(knownGroups(sidebar_->profiles()));
    if (dialog.exec() != QDialog::Accepted) return;
    ConnectionProfile p = dialog.profile();
    p.needsPassword = !p.endpoint.password.empty() || current->needsPassword;
    p.needsKeyPassphrase = current->needsKeyPassphrase && !p.endpoint.tls.keyFile.empty();
    secrets_->keep(p, dialog.rememberPassword());
    if (!p.endpoint.password.empty() && dialog.rememberPassword())
        vault_->store(p.id, QString::fromStdString(p.endpoint.password),
                      [](bool, const QString&) {});
    sidebar_->updateProfile(p);
    saveProfiles();
    if (hub_->isOpen(id)) openWithPassword(p);
}

DiscoverDialog* MainWindow::discoverLocks(const QString& profileId) {
    // The connection chosen in the sidebar, else the first one.
    QString id = profileId.isEmpty() ? sidebar_->currentId() : profileId;
    if (id.isEmpty() && !sidebar_->profiles().isEmpty()) id = sidebar_->profiles().first().id;
    const ConnectionProfile* p = sidebar_->profile(id);
    if (!p) {
        statusBar()->showMessage(tr("Discover needs a connection: add one first"), 6000);
        return nullptr;
    }
    auto* dialog = new DiscoverDialog(*p, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DiscoverDialog::addPatterns, this, &MainWindow::addPatterns);
    dialog->show();
    dialog->start();
    return dialog;
}

void MainWindow::addPatterns(const QString& id, const QStringList& patterns) {
    const ConnectionProfile* current = sidebar_->profile(id);
    if (!current) return;
    ConnectionProfile p = *current;
    for (const QString& pattern : patterns)
        if (!p.patterns.contains(pattern)) p.patterns << pattern;
    sidebar_->updateProfile(p);
    if (!p.isSandbox) saveProfiles();
    // The running watch takes the new patterns; the history of the locks it watched stays.
    hub_->setPatterns(id, p.patterns);
    statusBar()->showMessage(
        tr("%1 now watches %2").arg(p.name, p.patterns.join(QStringLiteral(", "))), 6000);
}

void MainWindow::applyWatchOptions() {
    // The running watches take them; the locks keep their history.
    hub_->setWatchOptions(watchOptions());
}

void MainWindow::connectSavedOnStart() {
    // Saved connections reconnect as the window opens: those with no password or one in the
    // keychain. A password that must be typed is asked for only when the operator connects.
    for (const ConnectionProfile& p : sidebar_->profiles()) {
        if (hub_->isOpen(p.id)) continue;
        if (!p.needsPassword || !p.endpoint.password.empty()) {
            openWithPassword(p, false);
            continue;
        }
        vault_->load(p.id, [this, copy = p](std::optional<QString> stored) mutable {
            if (!stored || hub_->isOpen(copy.id)) return;
            copy.endpoint.password = stored->toStdString();
            openWithPassword(copy, false);
        });
    }
}

void MainWindow::duplicateConnection(const QString& id) {
    const ConnectionProfile* current = sidebar_->profile(id);
    if (!current || current->isSandbox) return;
    ConnectionProfile copy =
        ConnectionProfile::create(tr("%1 (copy)").arg(current->name), current->endpoint);
    const QString newId = copy.id;
    copy = *current;
    copy.id = newId;
    copy.name = tr("%1 (copy)").arg(current->name);
    copy.endpoint.password.clear();           // the stored password belongs to the original's id
    copy.endpoint.tls.keyPassphrase.clear();  // so does the key passphrase
    copy.sentinelPassword.clear();            // and the Sentinels' password, even in the URL
    copy.sentinelUrl = current->sentinelUrlToSave();
    sidebar_->addProfile(copy);
    saveProfiles();
}

void MainWindow::removeConnection(const QString& id) {
    hub_->close(id);
    vault_->forget(id);
    secrets_->forget(id);
    sidebar_->removeProfile(id);
    saveProfiles();
}

void MainWindow::connectProfile(const QString& id) {
    const ConnectionProfile* p = sidebar_->profile(id);
    if (!p) return;
    if (hub_->isOpen(id)) {
        hub_->close(id);
        return;
    }
    showInspector();
    if (!p->needsPassword || !p->endpoint.password.empty()) {
        openWithPassword(*p);
        return;
    }
    ConnectionProfile copy = *p;
    vault_->load(id, [this, copy](std::optional<QString> stored) mutable {
        if (!stored) {
            bool ok = false;
            QString typed = QInputDialog::getText(this, tr("Password"),
                                                  tr("Password for %1:").arg(copy.displayUrl()),
                                                  QLineEdit::Password, QString(), &ok);
            if (!ok) return;
            stored = typed;
        }
        copy.endpoint.password = stored->toStdString();
        openWithPassword(copy);
    });
}

void MainWindow::openWithPassword(const ConnectionProfile& profile, bool mayAsk) {
    secrets_->gather(profile, mayAsk,
                     [this](const ConnectionProfile& p) { hub_->open(p, watchOptions()); });
}

inspect::WatchOptions MainWindow::watchOptions() const {
    inspect::WatchOptions options;
    options.doctor.heldTooLong = std::chrono::minutes(heldTooLongMinutes());
    options.includeNonLocks = settings_.value("inspector/showNonLockKeys", false).toBool();
    return options;
}

int MainWindow::heldTooLongMinutes() const {
    return std::max(1, settings_.value("doctor/heldTooLongMinutes", 30).toInt());
}

}  // namespace lockscope::ui

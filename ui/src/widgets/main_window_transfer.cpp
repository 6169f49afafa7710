// MainWindow's File → Import connections… and Export connections… (lockscope/fleet does the
// reading and writing; session/profile_transfer turns its connections into profiles).
#include <QCheckBox>
#include <QFile>
#include <QFileDialog>
#include <QMessageBox>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStatusBar>

#include "lockscope/errors.h"
#include "lockscope/fleet/connection_export.h"
#include "session/password_vault.h"
#include "session/profile_transfer.h"
#include "widgets/connection_secrets.h"
#include "widgets/connection_sidebar.h"
#include "widgets/import_connections_dialog.h"
#include "widgets/main_window.h"

namespace lockscope::ui {
namespace {

// A name the sidebar does not have yet: "name", else "name (2)", "name (3)"...
QString freeName(const QString& name, const QStringList& taken) {
    QString candidate = name;
    for (int n = 2; taken.contains(candidate); ++n)
        candidate = QStringLiteral("%1 (%2)").arg(name).arg(n);
    return candidate;
}

QStringList sidebarNames(const ConnectionSidebar& sidebar) {
    QStringList names;
    for (const auto& p : sidebar.profiles()) names << p.name;
    return names;
}

}  // namespace

void MainWindow::chooseConnectionsToImport() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import connections"), QString(),
        tr("Connection files (*.json *.ano *.txt *.lockscope-connections);;All files (*)"));
    if (path.isEmpty()) return;
    if (auto* dialog = importConnectionsFrom(path)) dialog->open();
}

ImportConnectionsDialog* MainWindow::importConnectionsFrom(const QString& path) {
    QFile file(path);
    QString why;
    std::optional<fleet::ImportReport> report;
    if (!file.open(QIODevice::ReadOnly)) {
        why = file.errorString();
    } else {
        // One byte past the limit, so the reader refuses a bigger file with its own words.
        const QByteArray bytes = file.read(static_cast<qint64>(fleet::kMaxImportBytes) + 1);
        try {
            report = fleet::importConnections(std::string_view(bytes.constData(), bytes.size()));
        } catch (const InvalidArgumentError& e) {
            why = QString::fromStdString(e.what());
        }
    }
    if (!report) {
        QMessageBox::warning(this, tr("Import connections"),
                             tr("%1 was not imported: %2").arg(path, why));
        return nullptr;
    }
    auto* dialog = new ImportConnectionsDialog(std::move(*report), sidebarNames(*sidebar_), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { importChosen(*dialog); });
    return dialog;
}

void MainWindow::importChosen(const ImportConnectionsDialog& dialog) {
    const bool remember = dialog.rememberPasswords()->isChecked();
    const QString certificates =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/certificates";
    int imported = 0;
    QStringList failures;
    // Gathered and added to the sidebar at once: it lists its groups again on each change,
    // and an import can bring 10,000 connections.
    QList<ConnectionProfile> added;
    QStringList taken = sidebarNames(*sidebar_);
    for (const auto& connection : dialog.chosen()) {
        ImportedProfile in;
        try {
            in = importedProfile(connection, certificates);
        } catch (const Error& e) {
            failures << QString::fromStdString(connection.name) + ": " + e.what();
            continue;
        }
        auto& p = in.profile;
        p.name = freeName(p.name, taken);
        taken << p.name;
        // As a connection typed in the dialog: the secrets stay in memory for this session
        // and go to the keychain when asked to; the settings only say that they are needed.
        p.endpoint.password = in.password.toStdString();
        p.sentinelPassword = in.sentinelPassword;
        if (!in.password.isEmpty() && remember)
            vault_->store(p.id, in.password, [](bool, const QString&) {});
        secrets_->keep(p, remember);
        added << p;
        ++imported;
    }
    sidebar_->addProfiles(added);
    saveProfiles();
    QString message =
        tr("Imported %n connection(s); connect each from the sidebar", nullptr, imported);
    if (!failures.isEmpty()) {
        message += tr(" — %n not imported", nullptr, static_cast<int>(failures.size()));
        QMessageBox::warning(this, tr("Import connections"), failures.join('\n'));
    }
    statusBar()->showMessage(message, 10000);
}

void MainWindow::chooseExportFile() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export connections"), QStringLiteral("connections.lockscope-connections.json"),
        tr("LockScope connections (*.json)"));
    if (!path.isEmpty()) exportConnectionsTo(path);
}

bool MainWindow::exportConnectionsTo(const QString& path) {
    const auto connections = portableConnections(sidebar_->profiles());
    const std::string text = fleet::exportConnections({connections.begin(), connections.end()});
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !file.commit()) {
        QMessageBox::warning(this, tr("Export connections"),
                             tr("%1 was not written: %2").arg(path, file.errorString()));
        return false;
    }
    statusBar()->showMessage(tr("Exported %n connection(s) to %1 (no password or key in it)",
                                nullptr, static_cast<int>(connections.size()))
                                 .arg(path),
                             10000);
    return true;
}

}  // namespace lockscope::ui

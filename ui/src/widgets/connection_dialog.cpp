#include "widgets/connection_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QShowEvent>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <optional>

#include "lockscope/errors.h"
#include "lockscope/sentinel.h"
#include "session/password_vault.h"
#include "support/pool_run.h"
#include "widgets/connection_secrets.h"
#include "widgets/connection_test.h"
#include "widgets/screen_fit.h"
#include "widgets/tls_settings_box.h"

namespace lockscope::ui {
ConnectionDialog::ConnectionDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Connection"));
    name_ = new QLineEdit;
    group_ = new QComboBox;
    group_->setObjectName(QStringLiteral("connectionGroup"));
    group_->setEditable(true);  // a new group is typed; the known ones are offered
    group_->lineEdit()->setPlaceholderText(tr("none (e.g. production, staging)"));
    url_ = new QLineEdit;
    url_->setPlaceholderText(
        QStringLiteral("redis://user@host:6379/0, rediss://… (TLS), unix:///path/redis.sock or "
                       "redis-sentinel://host:26379,host2:26379#mymaster"));
    host_ = new QLineEdit;
    port_ = new QSpinBox;
    port_->setRange(1, 65535);
    db_ = new QSpinBox;
    db_->setRange(0, 1'000'000);
    user_ = new QLineEdit;
    user_->setPlaceholderText(tr("default"));
    password_ = new QLineEdit;
    password_->setEchoMode(QLineEdit::Password);
    sentinelPassword_ = new QLineEdit;
    sentinelPassword_->setEchoMode(QLineEdit::Password);
    sentinelPassword_->setPlaceholderText(tr("only when the Sentinels require one"));
    sentinelPassword_->setToolTip(
        tr("The Sentinels' own password (their requirepass), which may differ from the data "
           "nodes'. Kept in the system keychain when you ask to remember it"));
    // A check box never wraps its text: kept short so that it fits the dialog at 560 px; the
    // TLS key passphrase it also keeps is said in the tooltip.
    remember_ = new QCheckBox(tr("&Remember in the system keychain, never in plain text"));
    remember_->setToolTip(
        tr("The password, a TLS key passphrase and the Sentinels' password are kept in the "
           "system keychain, never in a file"));
    readOnly_ = new QCheckBox(tr("Read-only: never send a write"));
    readOnly_->setToolTip(
        tr("Release, Add TTL and Force delete are disabled, and the connection refuses any write"));
    patterns_ = new QLineEdit;
    patterns_->setToolTip(tr("SCAN MATCH patterns, separated by commas"));
    // Short: a check box does not wrap (the dialog is 560 px at least); the tooltip says how.
    scanReplica_ = new QCheckBox(tr("Scan replicas; releases go to the primary"));
    scanReplica_->setToolTip(
        tr("On a Redis Cluster, one replica per shard is read (READONLY); behind Sentinel, an "
           "online replica the Sentinels list. The primaries get no scan load; a replica may "
           "lag a little. On a single server it has no effect"));
    maxLoad_ = new QDoubleSpinBox;
    maxLoad_->setRange(0.1, 100.0);
    maxLoad_->setDecimals(1);
    maxLoad_->setSuffix(QStringLiteral(" %"));
    maxLoad_->setToolTip(
        tr("The share of one server core the watch may use once the first scan is done: the "
           "rows on screen and the selected lock are read every interval, the rest and the "
           "search for new locks as fast as this allows (default 5%)"));
    clusterMap_ = new QLineEdit;
    clusterMap_->setPlaceholderText(QStringLiteral("10.0.0.5:6379=127.0.0.1:7001, …"));
    clusterMap_->setToolTip(
        tr("For a Redis Cluster whose nodes announce addresses this machine cannot reach (NAT, "
           "containers, a tunnel): each announced host:port and the host:port to use instead, "
           "separated by commas"));
    throughSeedHost_ = new QCheckBox(tr("Reach every node through this host (announced ports)"));
    throughSeedHost_->setToolTip(
        tr("Each cluster node is reached at the host above with the port it announces (an SSH "
           "tunnel or port forwarding per node); TLS still checks each node's own name"));
    tls_ = new TlsSettingsBox;
    testButton_ = new QPushButton(tr("&Test"));
    result_ = new QLabel;
    result_->setWordWrap(true);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    result_->setMinimumHeight(fontMetrics().height() * 2 + 4);

    auto* server = new QGroupBox(tr("Server"));
    auto* serverForm = new QFormLayout(server);
    serverForm->addRow(tr("&URL:"), url_);
    auto* hostRow = new QHBoxLayout;
    hostRow->addWidget(host_, 1);
    hostRow->addWidget(new QLabel(tr("Port:")));
    hostRow->addWidget(port_);
    hostRow->addWidget(new QLabel(tr("DB:")));
    hostRow->addWidget(db_);
    serverForm->addRow(tr("Host:"), hostRow);
    serverForm->addRow(tr("ACL user:"), user_);
    serverForm->addRow(tr("Password:"), password_);
    serverForm->addRow(tr("Sentinel pass&word:"), sentinelPassword_);
    serverForm_ = serverForm;
    serverForm->addRow(QString(), remember_);

    auto* watch = new QGroupBox(tr("Inspection"));
    auto* watchForm = new QFormLayout(watch);
    watchForm->addRow(tr("Name:"), name_);
    watchForm->addRow(tr("&Group:"), group_);
    watchForm->addRow(tr("&Patterns:"), patterns_);
    watchForm->addRow(tr("Load &budget:"), maxLoad_);
    watchForm->addRow(QString(), readOnly_);
    watchForm->addRow(QString(), scanReplica_);

    cluster_ = new QGroupBox(tr("Cluster nodes"));
    auto* clusterForm = new QFormLayout(cluster_);
    clusterForm->addRow(tr("Address &map:"), clusterMap_);
    clusterForm->addRow(QString(), throughSeedHost_);

    auto* testRow = new QHBoxLayout;
    testRow->addWidget(testButton_, 0, Qt::AlignTop);
    testRow->addWidget(result_, 1);

    // The sections scroll when the screen is too short for them (TLS on, at 720 px); the test
    // row and the buttons stay in reach below.
    auto* sections = new QWidget;
    auto* sectionsLayout = new QVBoxLayout(sections);
    sectionsLayout->setContentsMargins(0, 0, 0, 0);
    sectionsLayout->addWidget(server);
    sectionsLayout->addWidget(tls_);
    sectionsLayout->addWidget(watch);
    sectionsLayout->addWidget(cluster_);
    sections_ = new WholeContentScrollArea;
    sections_->setWidget(sections);
    // Fields shown or hidden (TLS on or off, the insecure warning): the dialog follows.
    connect(sections_, &WholeContentScrollArea::contentHintChanged, this, [this] {
        if (isVisible()) fitToScreen(this);
    });

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(sections_, 1);
    layout->addLayout(testRow);
    layout->addWidget(buttons);
    setMinimumWidth(560);
    vault_ = new PasswordVault(this);
    secrets_ = new ConnectionSecrets(*vault_, this);

    connect(url_, &QLineEdit::textEdited, this, &ConnectionDialog::urlEdited);
    connect(url_, &QLineEdit::editingFinished, this, &ConnectionDialog::urlEditingFinished);
    connect(sentinelPassword_, &QLineEdit::textEdited, this,
            [this] { sentinelPasswordFromUrl_ = false; });
    for (QLineEdit* e : {host_, user_, password_})
        connect(e, &QLineEdit::textEdited, this, &ConnectionDialog::fieldsEdited);
    connect(port_, &QSpinBox::valueChanged, this, &ConnectionDialog::fieldsEdited);
    connect(db_, &QSpinBox::valueChanged, this, &ConnectionDialog::fieldsEdited);
    connect(tls_, &TlsSettingsBox::enabledChanged, this, &ConnectionDialog::fieldsEdited);
    connect(testButton_, &QPushButton::clicked, this, &ConnectionDialog::runTest);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (host_->text().trimmed().isEmpty() && base_.endpoint.unixPath.empty()) {
            showResult(false, tr("Host is empty."));
            return;
        }
        QString mapError;
        parseClusterMap(&mapError);
        if (!mapError.isEmpty()) {
            showResult(false, mapError);
            return;
        }
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    setProfile(ConnectionProfile::create(tr("New connection"), Endpoint{}));
}

void ConnectionDialog::setKnownGroups(const QStringList& groups) {
    const QString typed = group_->currentText();
    group_->clear();
    group_->addItems(groups);
    group_->setCurrentText(typed);
}

ConnectionProfile ConnectionDialog::profile() const {
    ConnectionProfile p = base_;
    p.group = group_->currentText().trimmed();
    if (p.endpoint.unixPath.empty()) {
        p.endpoint.host = host_->text().trimmed().toStdString();
        p.endpoint.port = port_->value();
    }
    p.endpoint.db = db_->value();
    p.endpoint.user = user_->text().trimmed().toStdString();
    p.endpoint.password = password_->text().toStdString();
    p.endpoint.tls = tls_->options();
    p.readOnly = readOnly_->isChecked();
    p.scanReplica = !p.isSandbox && scanReplica_->isChecked();
    if (p.sentinelUrl.isEmpty()) {
        p.sentinelPassword.clear();
        p.needsSentinelPassword = false;
    } else {
        // Empty on a saved connection whose password is the keychain's: still needed.
        p.sentinelPassword = sentinelPassword_->text();
        p.needsSentinelPassword = p.needsSentinelPassword || !p.sentinelPassword.isEmpty();
    }
    p.patterns.clear();
    for (const QString& s : patterns_->text().split(',', Qt::SkipEmptyParts))
        if (!s.trimmed().isEmpty()) p.patterns.append(s.trimmed());
    if (p.patterns.isEmpty()) p.patterns = {QStringLiteral("lock:*")};
    p.maxLoad = std::clamp(maxLoad_->value() / 100.0, 0.001, 1.0);
    p.clusterAddressing = parseClusterMap(nullptr);
    p.clusterAddressing.throughSeedHost = throughSeedHost_->isChecked();
    // No name, or only the address the dialog opened with (what an unnamed connection is
    // called): the address as edited. A moved connection kept its old address as its name.
    const QString typed = name_->text().trimmed();
    p.name = typed.isEmpty() || typed == base_.displayUrl() ? p.displayUrl() : typed;
    return p;
}

inspect::ClusterAddressing ConnectionDialog::parseClusterMap(QString* error) const {
    inspect::ClusterAddressing addressing;
    for (const QString& entry : clusterMap_->text().split(',', Qt::SkipEmptyParts)) {
        if (entry.trimmed().isEmpty()) continue;
        try {
            inspect::addAddressMapping(addressing, entry.trimmed().toStdString());
        } catch (const Error& e) {
            if (error && error->isEmpty())
                *error = tr("Address map: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    return addressing;
}

bool ConnectionDialog::rememberPassword() const {
    return remember_->isChecked();
}
QString ConnectionDialog::testResult() const {
    return result_->text();
}

void ConnectionDialog::runTest() {
    testButton_->setEnabled(false);
    result_->setText(tr("Testing…"));
    auto* watcher = new QFutureWatcher<ConnectionTestOutcome>(this);
    connect(watcher, &QFutureWatcher<ConnectionTestOutcome>::finished, this, [this, watcher] {
        ConnectionTestOutcome outcome = watcher->result();
        watcher->deleteLater();
        testButton_->setEnabled(true);
        showResult(outcome.ok, outcome.message);
        emit testFinished(outcome.ok, outcome.message);
    });
    // A saved connection's secrets in the keychain, read as connecting reads them (the
    // lookup answers later: the dialog stays responsive meanwhile).
    secrets_->recall(profile(), [this, watcher](const ConnectionProfile& p, const QString& unread) {
        if (!unread.isEmpty()) {
            // Testing without them would only say NOAUTH: say what is missing instead.
            watcher->deleteLater();
            testButton_->setEnabled(true);
            showResult(false, unread);
            emit testFinished(false, unread);
            return;
        }
        std::optional<SentinelTarget> target;  // std types only go to the pool thread
        try {
            if (!p.sentinelUrl.isEmpty()) target = p.sentinelTarget();
        } catch (const Error& e) {
            watcher->deleteLater();
            testButton_->setEnabled(true);
            showResult(false, QString::fromStdString(e.what()));
            emit testFinished(false, QString::fromStdString(e.what()));
            return;
        }
        watcher->setFuture(runOnPool([endpoint = p.endpoint, target] {
            return target ? testSentinelConnection(*target) : testConnection(endpoint);
        }));
    });
}

void ConnectionDialog::showResult(bool ok, const QString& message) {
    // Connected without checking who answered: not a plain success.
    const bool unverified = ok && message.contains(QStringLiteral("NOT VERIFIED"));
    result_->setText((unverified ? QStringLiteral("⚠ ")
                      : ok       ? QStringLiteral("✔ ")
                                 : QStringLiteral("✘ ")) +
                     message);
    QPalette p = result_->palette();
    p.setColor(QPalette::WindowText, unverified ? QColor(0xb2, 0x4a, 0x00)
                                     : ok       ? QColor(0x2e, 0x7d, 0x32)
                                                : QColor(0xc6, 0x28, 0x28));
    result_->setPalette(p);
}

void ConnectionDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    fitToScreen(this);
}

}  // namespace lockscope::ui

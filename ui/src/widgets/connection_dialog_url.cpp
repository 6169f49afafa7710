// The URL half of ConnectionDialog (connection_dialog.h): the fields set from a profile, the
// URL field and the fields below it kept in step both ways, and a Sentinel URL's passwords
// moved to their own fields.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <optional>

#include "lockscope/errors.h"
#include "lockscope/sentinel.h"
#include "widgets/connection_dialog.h"
#include "widgets/tls_settings_box.h"

namespace lockscope::ui {
namespace {

// A Sentinel URL split: as saved (no password of either kind) and the Sentinels' password it
// held. Throws InvalidArgumentError for a bad URL, or a password that is not UTF-8 text (the
// field could not hold it as typed).
struct SplitSentinelUrl {
    SentinelTarget target;
    QString bareUrl;
    QString sentinelPassword;
};

SplitSentinelUrl splitSentinelUrl(const QString& url) {
    SplitSentinelUrl split;
    split.target = parseSentinelUrl(url.toStdString());
    split.sentinelPassword = QString::fromStdString(split.target.sentinelPassword);
    if (split.sentinelPassword.toStdString() != split.target.sentinelPassword)
        throw InvalidArgumentError(
            "the Sentinels' password in the URL is not UTF-8 text: type it in the Sentinel "
            "password field");
    ConnectionProfile bare;
    bare.sentinelUrl = url;
    bare.endpoint = split.target.data;
    split.bareUrl = bare.sentinelUrlToSave();
    return split;
}

}  // namespace

void ConnectionDialog::setProfile(const ConnectionProfile& profile) {
    base_ = profile;
    sentinelPasswordFromUrl_ = false;
    urlToRewrite_ = false;
    QString sentinelPassword = profile.sentinelPassword;
    if (!profile.sentinelUrl.isEmpty()) {
        // A password in the URL (a profile made from one) moves to its field, as typed ones.
        try {
            const SplitSentinelUrl split = splitSentinelUrl(profile.sentinelUrl);
            if (sentinelPassword.isEmpty()) sentinelPassword = split.sentinelPassword;
            base_.sentinelUrl = split.bareUrl;
        } catch (const Error&) {
            // Kept as is: Test and OK report what is wrong with it.
        }
    }
    syncing_ = true;
    name_->setText(profile.name);
    group_->setCurrentText(profile.group);
    host_->setText(QString::fromStdString(profile.endpoint.host));
    port_->setValue(profile.endpoint.port > 0 ? profile.endpoint.port : 6379);
    db_->setValue(profile.endpoint.db);
    user_->setText(QString::fromStdString(profile.endpoint.user));
    password_->setText(QString::fromStdString(profile.endpoint.password));
    tls_->setOptions(profile.endpoint.tls);
    readOnly_->setChecked(profile.readOnly);
    scanReplica_->setChecked(profile.scanReplica);
    patterns_->setText(profile.patterns.join(QStringLiteral(", ")));
    maxLoad_->setValue(profile.maxLoad * 100.0);
    clusterMap_->setText(profile.addressMapEntries().join(QStringLiteral(", ")));
    throughSeedHost_->setChecked(profile.clusterAddressing.throughSeedHost);
    sentinelPassword_->setText(sentinelPassword);
    url_->setText(urlText(base_));
    const bool sentinel = !profile.sentinelUrl.isEmpty();  // the Sentinels name the host
    host_->setEnabled(!sentinel && profile.endpoint.unixPath.empty());
    port_->setEnabled(!sentinel && profile.endpoint.unixPath.empty());
    scanReplica_->setEnabled(!profile.isSandbox);
    showSentinelFields(sentinel);
    syncing_ = false;
}

void ConnectionDialog::urlEdited() {
    if (syncing_) return;
    try {
        const QString url = url_->text().trimmed();
        // Behind Sentinel: the primary is asked for at each connect; the fields below hold
        // the data nodes' user, password, db and TLS from the URL, the host its first Sentinel.
        Endpoint e;
        std::optional<QString> sentinelPassword;  // set: the field's new text
        if (isSentinelUrl(url.toStdString())) {
            const SplitSentinelUrl split = splitSentinelUrl(url);
            e = split.target.data;
            e.host = split.target.sentinels.front().host;
            e.port = split.target.sentinels.front().port;
            base_.sentinelUrl = split.bareUrl;
            // Shown as saved once the operator leaves the field: no password of either kind
            // (they have their fields), even an empty one.
            urlToRewrite_ = split.bareUrl != url;
            if (!split.sentinelPassword.isEmpty())
                sentinelPassword = split.sentinelPassword;
            else if (sentinelPasswordFromUrl_)
                sentinelPassword = QString();  // taken out of the URL again
        } else {
            e = parseEndpoint(url.toStdString());
            base_.sentinelUrl.clear();
        }
        syncing_ = true;
        if (sentinelPassword) {
            sentinelPassword_->setText(*sentinelPassword);
            sentinelPasswordFromUrl_ = !sentinelPassword->isEmpty();
        }
        showSentinelFields(!base_.sentinelUrl.isEmpty());
        base_.endpoint.unixPath = e.unixPath;
        host_->setText(QString::fromStdString(e.host));
        host_->setEnabled(!e.isUnix() && base_.sentinelUrl.isEmpty());
        port_->setEnabled(!e.isUnix() && base_.sentinelUrl.isEmpty());
        if (!e.isUnix()) port_->setValue(e.port);
        db_->setValue(e.db);
        user_->setText(QString::fromStdString(e.user));
        if (!e.password.empty()) password_->setText(QString::fromStdString(e.password));
        tls_->setChecked(e.tls.enabled && !e.isUnix());
        syncing_ = false;
        result_->clear();
        // Typed by hand, the URL is rewritten when the operator leaves it; set at once
        // (pasted from outside the field, set by a program), now.
        if (!url_->hasFocus()) urlEditingFinished();
    } catch (const Error& e) {
        showResult(false, QString::fromStdString(e.what()));
    }
}

void ConnectionDialog::urlEditingFinished() {
    if (!urlToRewrite_) return;
    urlToRewrite_ = false;
    syncing_ = true;
    url_->setText(urlText(profile()));
    url_->setCursorPosition(0);  // its scheme in view, not the service name alone
    syncing_ = false;
}

QString ConnectionDialog::urlText(const ConnectionProfile& p) {
    return p.sentinelUrl.isEmpty() ? p.displayUrl() : p.sentinelUrlToSave();
}

void ConnectionDialog::showSentinelFields(bool sentinel) {
    serverForm_->setRowVisible(sentinelPassword_, sentinel);
    // The Sentinels name the primary: no cluster address map applies.
    cluster_->setVisible(!sentinel);
}

void ConnectionDialog::fieldsEdited() {
    if (syncing_) return;
    syncing_ = true;
    url_->setText(urlText(profile()));
    syncing_ = false;
}

}  // namespace lockscope::ui

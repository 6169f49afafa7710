#include "models/finding_text.h"

#include <QObject>

#include "lockscope/inspect/doctor.h"

namespace lockscope::ui {

using inspect::rule;
using inspect::rulesIn;

QStringList findingIds(std::uint32_t findings) {
    QStringList ids;
    for (auto id : rulesIn(findings)) ids << QString::fromLatin1(rule(id).name);
    return ids;
}

QStringList findingLabels(std::uint32_t findings) {
    return findingIds(findings);
}

QString findingTooltips(std::uint32_t findings) {
    QStringList parts;
    for (auto id : rulesIn(findings))
        parts << QStringLiteral("<b>%1</b> (%3)<br>%2")
                     .arg(QString::fromUtf8(rule(id).title).toHtmlEscaped(),
                          QString::fromUtf8(rule(id).explanation).toHtmlEscaped(),
                          severityName(rule(id).severity));
    return parts.join(QStringLiteral("<hr>"));
}

inspect::Severity findingSeverity(const QString& id) {
    for (const auto& r : inspect::allRules())
        if (id == QLatin1String(r.name)) return r.severity;
    return inspect::Severity::Info;
}

QColor severityColor(inspect::Severity severity) {
    switch (severity) {
        case inspect::Severity::Critical:
            return {0xd3, 0x2f, 0x2f};
        case inspect::Severity::Warning:
            return {0xe0, 0x8a, 0x00};
        case inspect::Severity::Info:
            break;
    }
    return {0x1e, 0x88, 0xe5};
}

QString severityName(inspect::Severity severity) {
    return QObject::tr(inspect::toString(severity));
}

QString findingDetails(std::uint32_t findings, inspect::LockKind kind) {
    QStringList parts;
    for (auto id : rulesIn(findings)) {
        const auto& r = rule(id);
        QString explanation = QString::fromUtf8(r.explanation).toHtmlEscaped();
        if (id == inspect::RuleId::NoTtl)
            explanation += QStringLiteral("</p><p>") +
                           QString::fromUtf8(inspect::noTtlCause(kind)).toHtmlEscaped();
        parts << QStringLiteral(
                     "<p><span style=\"color:%5\">●</span> <b>%1</b> <code>%2</code> "
                     "<i>(%6)</i></p><p>%3</p><p><i>Fix:</i> %4</p>")
                     .arg(QString::fromUtf8(r.title).toHtmlEscaped(), QString::fromLatin1(r.name),
                          explanation, QString::fromUtf8(r.fix).toHtmlEscaped(),
                          severityColor(r.severity).name(), severityName(r.severity));
    }
    return parts.isEmpty() ? QObject::tr("<p>No findings: this lock follows the guide.</p>")
                           : parts.join(QString());
}

}  // namespace lockscope::ui

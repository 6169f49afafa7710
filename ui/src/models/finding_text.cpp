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
        parts << QStringLiteral("<b>%1</b><br>%2")
                     .arg(QString::fromUtf8(rule(id).title).toHtmlEscaped(),
                          QString::fromUtf8(rule(id).explanation).toHtmlEscaped());
    return parts.join(QStringLiteral("<hr>"));
}

QString findingDetails(std::uint32_t findings) {
    QStringList parts;
    for (auto id : rulesIn(findings)) {
        const auto& r = rule(id);
        parts << QStringLiteral("<p><b>%1</b> <code>%2</code></p><p>%3</p><p><i>Fix:</i> %4</p>")
                     .arg(QString::fromUtf8(r.title).toHtmlEscaped(), QString::fromLatin1(r.name),
                          QString::fromUtf8(r.explanation).toHtmlEscaped(),
                          QString::fromUtf8(r.fix).toHtmlEscaped());
    }
    return parts.isEmpty() ? QObject::tr("<p>No findings: this lock follows the guide.</p>")
                           : parts.join(QString());
}

}  // namespace lockscope::ui

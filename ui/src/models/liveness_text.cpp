#include "models/liveness_text.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QStringList>
#include <chrono>

#include "models/lock_table_model.h"

namespace lockscope::ui {
namespace {

using inspect::Verdict;
using inspect::WallClock;

QString tr(const char* text) {
    return QCoreApplication::translate("Liveness", text);
}

qint64 msBetween(WallClock::time_point earlier, WallClock::time_point later) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(later - earlier).count();
}

QString ago(WallClock::time_point at, WallClock::time_point now) {
    qint64 ms = msBetween(at, now);
    if (ms < 1000) return tr("just now");
    return tr("%1 ago").arg(LockTableModel::formatDuration(ms));
}

QString clockTime(WallClock::time_point at) {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch());
    return QDateTime::fromMSecsSinceEpoch(ms.count()).toString(QStringLiteral("hh:mm:ss"));
}

QString pointsTo(const inspect::Evidence& e) {
    if (e.warning) return QStringLiteral("⚠");
    switch (e.pointsTo) {
        case Verdict::Alive:
            return QStringLiteral("✔");
        case Verdict::Gone:
            return QStringLiteral("✘");
        case Verdict::Unknown:
            break;
    }
    return QStringLiteral("·");
}

QString evidenceLine(const inspect::Evidence& e, WallClock::time_point now) {
    return QStringLiteral("%1 %2 (%3, %4)")
        .arg(pointsTo(e), QString::fromStdString(e.text), clockTime(e.seenAt), ago(e.seenAt, now));
}

QString meaning(Verdict verdict) {
    switch (verdict) {
        case Verdict::Alive:
            return tr(
                "Its holder is alive: releasing it lets another client in while the work "
                "it protects is still running.");
        case Verdict::Gone:
            return tr(
                "Its holder is gone: an orphan. Releasing it frees the resource; nothing "
                "alive was seen holding it.");
        case Verdict::Unknown:
            break;
    }
    return tr(
        "Whether its holder is alive is unknown: LockScope found no evidence either "
        "way. Check the holder before releasing it.");
}

}  // namespace

QString livenessLabel(const inspect::LockRecord& record, WallClock::time_point now) {
    if (!record.liveness) return QStringLiteral("—");
    const inspect::HolderVerdict& v = *record.liveness;
    switch (v.verdict) {
        case Verdict::Alive:
            if (v.since)
                return tr("alive · %1")
                    .arg(LockTableModel::formatDuration(msBetween(*v.since, now)));
            return tr("alive");
        case Verdict::Gone:
            // Its last sign of life, short enough for the column (the tooltip says more).
            if (v.since) return tr("gone · %1").arg(ago(*v.since, now));
            return tr("gone");
        case Verdict::Unknown:
            break;
    }
    return tr("unknown");
}

QString livenessEvidence(const inspect::LockRecord& record, WallClock::time_point now) {
    if (!record.liveness)
        return tr("Not judged: liveness is read for locks of a known holder format only.");
    QStringList lines;
    lines << meaning(record.liveness->verdict);
    for (const auto& e : record.liveness->evidence) lines << evidenceLine(e, now);
    return lines.join(QLatin1Char('\n'));
}

QString livenessDetails(const inspect::LockRecord& record, WallClock::time_point now) {
    if (!record.liveness)
        return tr(
            "<p><b>Not judged.</b> LockScope reads whether a holder is alive for the "
            "formats whose holder it can find (job queues, Sidekiq, renewing locks, "
            "LockScope's own); this lock's was not read.</p>");
    QString html = QStringLiteral("<p><b>%1</b> — %2</p><ul>")
                       .arg(livenessLabel(record, now).toHtmlEscaped(),
                            meaning(record.liveness->verdict).toHtmlEscaped());
    for (const auto& e : record.liveness->evidence)
        html += QStringLiteral("<li>%1</li>").arg(evidenceLine(e, now).toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

QString livenessForConfirmation(const inspect::LockRecord& record, WallClock::time_point now) {
    if (!record.liveness) return tr("Holder alive? Not judged.");
    QString text = tr("Holder alive? %1\n%2")
                       .arg(livenessLabel(record, now), meaning(record.liveness->verdict));
    int shown = 0;
    for (const auto& e : record.liveness->evidence) {
        if (++shown > 4) break;  // the dialog stays short: the detail pane has every line
        text += QLatin1Char('\n') + evidenceLine(e, now);
    }
    return text;
}

std::optional<QColor> livenessColor(const inspect::LockRecord& record) {
    if (!record.liveness) return std::nullopt;
    switch (record.liveness->verdict) {
        case Verdict::Alive:
            return QColor(0x2e, 0x7d, 0x32);
        case Verdict::Gone:
            return QColor(0xc6, 0x28, 0x28);
        case Verdict::Unknown:
            break;
    }
    return QColor(0x9e, 0x9e, 0x9e);
}

int livenessRank(const inspect::LockRecord& record) {
    if (!record.liveness) return 3;
    switch (record.liveness->verdict) {
        case Verdict::Gone:
            return 0;
        case Verdict::Unknown:
            return 1;
        case Verdict::Alive:
            return 2;
    }
    return 3;
}

bool isOrphan(const inspect::LockRecord& record) {
    return record.liveness && record.liveness->verdict == Verdict::Gone;
}

}  // namespace lockscope::ui

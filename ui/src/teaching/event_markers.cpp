#include "event_markers.h"

#include <QObject>

#include "lane_colors.h"
#include "sim_text.h"

namespace lockscope::ui {

bool replySucceeded(const std::string& reply) {
    if (reply == "OK") return true;
    const std::string prefix = "(integer) ";
    if (reply.rfind(prefix, 0) == 0)
        return reply.size() > prefix.size() && reply.substr(prefix.size()) != "0";
    return !reply.empty() && reply != "(nil)";
}

QString shortCommand(const sim::TimelineEvent& event) {
    QString command = qs(event.command);
    // Commands to one of several nodes carry its name first ("A> EVALSHA ..."): the pill
    // names the operation, so a fan-out to five nodes reads "acquire ×5".
    if (command.section(QLatin1Char(' '), 0, 0).endsWith(QLatin1Char('>')))
        command = command.section(QLatin1Char(' '), 1);
    QString op = command.section(QLatin1Char(' '), 0, 0).toUpper();
    if (op == QLatin1String("EVALSHA") || op == QLatin1String("EVAL")) {
        QString lua = qs(event.script);
        if (lua.contains(QLatin1String("INCR"))) return QStringLiteral("acquire");
        if (lua.contains(QLatin1String("PEXPIRE"))) return QStringLiteral("extend");
        if (lua.contains(QLatin1String("DEL"))) return QStringLiteral("release");
        return op;
    }
    if (op == QLatin1String("SET") && command.contains(QLatin1String(" NX")))
        return QStringLiteral("SET NX");
    return op;
}

bool crashedBy(const sim::Recording& recording, const QString& actor, sim::VirtualMs t) {
    for (const sim::Interval& interval : recording.intervals) {
        if (interval.kind != sim::IntervalKind::Crashed || interval.from > t) continue;
        const sim::Lane* lane = recording.lane(interval.lane);
        if (lane && qs(lane->name) == actor) return true;
    }
    return false;
}

QString foreignVictim(const sim::Recording& recording, const sim::TimelineEvent& event) {
    if (event.kind != sim::EventKind::Command || !replySucceeded(event.reply)) return {};
    QString op = shortCommand(event);
    if (op != QLatin1String("DEL") && op != QLatin1String("release")) return {};
    // The key's tenure that ended right then, if it was somebody else's.
    for (const sim::Interval& interval : recording.intervals) {
        if (interval.kind != sim::IntervalKind::Ownership || interval.to != event.time ||
            interval.ongoing)
            continue;
        const sim::Lane* lane = recording.lane(interval.lane);
        if (!lane || lane->kind != sim::LaneKind::RedisKey) continue;
        QString holder = intervalActor(interval);
        // Removing a crashed holder's orphan is the operator's safe release, not harm.
        if (holder != qs(event.actor) && !crashedBy(recording, holder, event.time)) return holder;
    }
    return {};
}

MarkerStyle markerStyle(const sim::TimelineEvent& event, const sim::Recording& recording,
                        const QPalette& palette) {
    MarkerStyle style;
    style.color = LaneColors::actor(qs(event.actor), palette);
    QString detail = qs(event.detail);
    using K = sim::EventKind;
    switch (event.kind) {
        case K::Command:
            style.text = shortCommand(event);
            style.hollow = !replySucceeded(event.reply);
            break;
        case K::KeyChanged: {
            // A new holder shows as a bar; a deletion of somebody else's lock is the
            // moment of the lesson and gets a red pill on the key lane.
            style.visible = false;
            QString deleter = detail.section(QStringLiteral("deleted by "), 1).trimmed();
            if (deleter.isEmpty()) break;
            for (const sim::Interval& interval : recording.intervals) {
                if (interval.lane != event.lane || interval.kind != sim::IntervalKind::Ownership ||
                    interval.to != event.time || interval.ongoing)
                    continue;
                QString holder = intervalActor(interval);
                if (holder == deleter) continue;
                style.visible = true;
                if (crashedBy(recording, holder, event.time)) {
                    style.text = QObject::tr("✓ %1's orphan released by %2").arg(holder, deleter);
                    style.color = LaneColors::good(palette);
                } else {
                    style.text = QObject::tr("✗ %1's lock deleted by %2").arg(holder, deleter);
                    style.color = LaneColors::bad(palette);
                }
                break;
            }
            break;
        }
        case K::KeyExpired:
            style.text = QObject::tr("expired");
            style.color = LaneColors::lapse(palette);
            break;
        case K::FileOpened:
            style.text = QObject::tr("open");
            break;
        case K::ChunkWritten:
            style.alarm = detail.contains(QLatin1String("interleaved")) ||
                          detail.contains(QLatin1String("corrupt"));
            break;
        case K::EmailSent:
            style.text = QObject::tr("✉ email");
            break;
        case K::EmailSuppressed:
            style.text = QObject::tr("✉ held");
            style.hollow = true;
            break;
        case K::FencedWriteAccepted:
            style.text = QObject::tr("save ✓");
            break;
        case K::FencedWriteRejected:
            style.text = QObject::tr("save ✗");
            style.hollow = true;
            break;
        case K::PauseStarted:
        case K::PauseEnded:
            style.visible = false;
            break;
        case K::Crashed:
            style.text = QObject::tr("✗ crash");
            style.color = LaneColors::crash(palette);
            break;
        case K::RunStarted:
        case K::RunCompleted:
            style.visible = false;  // the job bar starts and ends there
            break;
        case K::RunAborted:
            style.text = QObject::tr("abort");
            break;
        case K::RunRefused:
            style.text = QObject::tr("skip");
            style.hollow = true;
            break;
        case K::Printed:
            style.text = detail.left(14);
            break;
        case K::Note:
            break;
        default:  // kinds newer than this panel (replication, failover...): their name
            style.text = QString::fromLatin1(sim::toString(event.kind));
            break;
    }
    if (!foreignVictim(recording, event).isEmpty()) style.alarm = true;
    return style;
}

QString eventToolTip(const sim::TimelineEvent& event, const sim::Recording& recording) {
    QString html = QStringLiteral("<b>%1 · %2</b> <i>%3</i>")
                       .arg(virtualTimeText(event.time), qs(event.actor).toHtmlEscaped(),
                            QString::fromLatin1(sim::toString(event.kind)));
    if (!event.command.empty()) {
        const std::string& shown = event.shown.empty() ? event.command : event.shown;
        html += QStringLiteral("<br><code>%1</code><br>→ <code>%2</code>")
                    .arg(qs(shown).toHtmlEscaped(), qs(event.reply).toHtmlEscaped());
        if (shown != event.command)
            html += QObject::tr("<br><small>sent as <code>%1</code></small>")
                        .arg(qs(event.command).toHtmlEscaped());
    }
    if (!event.detail.empty())
        html += QStringLiteral("<br>%1").arg(qs(event.detail).toHtmlEscaped());
    QString victim = foreignVictim(recording, event);
    if (!victim.isEmpty())
        html += QObject::tr("<br><b>⚠ a foreign deletion:</b> this removed %1's lock, not %2's")
                    .arg(victim.toHtmlEscaped(), qs(event.actor).toHtmlEscaped());
    if (!event.script.empty())
        html += QStringLiteral("<pre>%1</pre>").arg(qs(event.script).trimmed().toHtmlEscaped());
    return html;
}

QString intervalActor(const sim::Interval& interval) {
    return qs(interval.label).section(QLatin1Char(' '), 0, 0);
}

QString intervalLabel(const sim::Interval& interval) {
    if (interval.kind != sim::IntervalKind::Ownership) return qs(interval.label);
    // Most telling first, so eliding drops the token before the fence.
    QString token = qs(interval.token);
    if (token.size() > 8) token = token.left(8) + QStringLiteral("…");
    QString label = intervalActor(interval);
    if (interval.fence) label += QObject::tr(" · fence %1").arg(interval.fence);
    return label + QStringLiteral(" · ") + token;
}

QString intervalToolTip(const sim::Interval& interval, const QString& laneName) {
    QString what;
    using K = sim::IntervalKind;
    switch (interval.kind) {
        case K::Ownership:
            what = QObject::tr("%1 holds the lock").arg(intervalActor(interval));
            break;
        case K::JobRun:
            what = QObject::tr("%1's job is running").arg(laneName);
            break;
        case K::Pause:
            what = QObject::tr("%1 is frozen (%2)").arg(laneName, qs(interval.label));
            break;
        case K::LeaseLapsed:
            what = QObject::tr("%1 still works, but its lock is gone (%2)")
                       .arg(laneName, qs(interval.label));
            break;
        case K::Crashed:
            what = QObject::tr("%1 has crashed").arg(laneName);
            break;
        case K::NoTtl:
            what = QObject::tr("the key has no TTL: it never expires");
            break;
    }
    QString html =
        QStringLiteral("<b>%1</b><br>%2 → %3%4")
            .arg(what.toHtmlEscaped(), virtualTimeText(interval.from), virtualTimeText(interval.to),
                 interval.ongoing ? QObject::tr(" (still at the end)") : QString());
    if (!interval.token.empty())
        html += QObject::tr("<br>token <code>%1</code>").arg(qs(interval.token).toHtmlEscaped());
    if (interval.fence) html += QObject::tr(", fence %1").arg(interval.fence);
    return html;
}

}  // namespace lockscope::ui

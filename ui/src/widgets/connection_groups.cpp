#include "widgets/connection_groups.h"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>

namespace lockscope::ui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ConnectionGroups", text);
}

bool byName(const QString& a, const QString& b) {
    const int c = QString::compare(a, b, Qt::CaseInsensitive);
    return c != 0 ? c < 0 : a < b;
}

// "1 lock", "2 locks" ("1 locks" read as a bug in the sidebar).
QString lockCountText(int locks) {
    return locks == 1 ? tr("1 lock") : tr("%1 locks").arg(QLocale().toString(locks));
}

}  // namespace

QList<SidebarGroup> groupConnections(const QList<ConnectionProfile>& profiles) {
    QStringList names;
    for (const auto& p : profiles)
        if (!names.contains(p.group.trimmed())) names << p.group.trimmed();
    std::sort(names.begin(), names.end(), byName);  // "" (no group) sorts first
    QList<SidebarGroup> groups;
    for (const QString& name : names) {
        SidebarGroup g{name, {}};
        for (int i = 0; i < profiles.size(); ++i)
            if (profiles[i].group.trimmed() == name) g.members << i;
        std::stable_sort(g.members.begin(), g.members.end(),
                         [&](int a, int b) { return byName(profiles[a].name, profiles[b].name); });
        groups << g;
    }
    return groups;
}

QStringList knownGroups(const QList<ConnectionProfile>& profiles) {
    QStringList names;
    for (const SidebarGroup& g : groupConnections(profiles))
        if (!g.name.isEmpty()) names << g.name;
    return names;
}

QString groupHeaderText(const SidebarGroup& group, const QList<ConnectionProfile>& profiles,
                        const QHash<QString, ConnectionFigures>& figures) {
    int open = 0, locks = 0;
    bool anyCounted = false;
    for (int i : group.members) {
        const ConnectionFigures f = figures.value(profiles[i].id);
        if (f.state == ConnectionState::Connected) ++open;
        if (f.locks >= 0) locks += f.locks, anyCounted = true;
    }
    QString text = (group.members.size() == 1 ? tr("1 connection")
                                              : tr("%1 connections").arg(group.members.size())) +
                   QStringLiteral(" · ") + tr("%1 connected").arg(open);
    if (anyCounted) text += QStringLiteral(" · ") + lockCountText(locks);
    return text;
}

QString figuresText(const ConnectionFigures& figures) {
    if (figures.state == ConnectionState::Stopped) return {};
    QString text;
    if (figures.locks >= 0) text += QStringLiteral(" · ") + lockCountText(figures.locks);
    if (figures.load >= 0)
        text += QStringLiteral(" · ") + (figures.load < 0.001
                                             ? tr("<0.1% load")
                                             : tr("%1% load").arg(figures.load * 100, 0, 'f', 1));
    return text;
}

bool matchesFilter(const ConnectionProfile& profile, const QString& filter) {
    const QString haystack =
        profile.name + QLatin1Char(' ') + profile.displayUrl() + QLatin1Char(' ') + profile.group;
    const QStringList words = filter.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return std::all_of(words.begin(), words.end(), [&](const QString& word) {
        return haystack.contains(word, Qt::CaseInsensitive);
    });
}

}  // namespace lockscope::ui

#include "widgets/connection_sidebar.h"

#include "widgets/connection_item_delegate.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPainter>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace lockscope::ui {
namespace {

constexpr int kIdRole = Qt::UserRole + 1;
constexpr int kStateRole = Qt::UserRole + 2;
constexpr int kGroupRole = ConnectionItemDelegate::GroupHeaderRole;  // a group's header row

QIcon stateDot(ConnectionState state) {
    QColor color;
    switch (state) {
        case ConnectionState::Connected:
            color = QColor(0x43, 0xa0, 0x47);
            break;
        case ConnectionState::Connecting:
        case ConnectionState::Reconnecting:
            color = QColor(0xf5, 0x9e, 0x0b);
            break;
        case ConnectionState::Failed:
            color = QColor(0xe5, 0x39, 0x35);
            break;
        case ConnectionState::Stopped:
            color = QColor(0x9e, 0x9e, 0x9e);
            break;
    }
    QPixmap pix(32, 32);
    pix.fill(Qt::transparent);
    QPainter p(&pix);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(color);
    p.setPen(color.darker(130));
    p.drawEllipse(QRectF(6, 6, 20, 20));
    return {pix};
}

}  // namespace

ConnectionSidebar::ConnectionSidebar(QWidget* parent) : QWidget(parent) {
    auto* header = new QLabel(tr("<b>Connections</b>"));
    filter_ = new QLineEdit;
    filter_->setObjectName(QStringLiteral("connectionFilter"));
    filter_->setPlaceholderText(tr("Filter connections"));
    filter_->setClearButtonEnabled(true);
    list_ = new QListWidget;
    list_->setIconSize(QSize(14, 14));
    // Drawn by the delegate: the name, the address and state, a cluster's nodes as a tree
    // with columns (the wrapped text broke node lines mid-phrase).
    list_->setWordWrap(false);
    list_->setItemDelegate(new ConnectionItemDelegate(list_));
    list_->setUniformItemSizes(false);
    list_->setContextMenuPolicy(Qt::CustomContextMenu);
    auto* add = new QToolButton;
    add->setIcon(QIcon(QStringLiteral(":/icons/add-connection.svg")));
    add->setToolTip(tr("Add a connection"));
    auto* edit = new QToolButton;
    edit->setText(tr("Edit"));
    auto* remove = new QToolButton;
    remove->setText(tr("Remove"));
    sandbox_ =
        new QPushButton(QIcon(QStringLiteral(":/icons/sandbox.svg")), tr("Start local sandbox"));
    sandbox_->setToolTip(
        tr("A private redis-server on a free loopback port, with live demo locks"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(edit);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(header);
    layout->addWidget(filter_);
    layout->addWidget(list_, 1);
    layout->addLayout(buttons);
    layout->addWidget(sandbox_);

    connect(add, &QToolButton::clicked, this, &ConnectionSidebar::addRequested);
    connect(edit, &QToolButton::clicked, this, [this] {
        if (!currentId().isEmpty()) emit editRequested(currentId());
    });
    connect(remove, &QToolButton::clicked, this, [this] {
        if (!currentId().isEmpty()) emit removeRequested(currentId());
    });
    connect(filter_, &QLineEdit::textChanged, this, &ConnectionSidebar::applyFilter);
    connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        if (item->data(kGroupRole).isValid()) return;  // a header folds on a click
        emit toggleRequested(item->data(kIdRole).toString());
    });
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        if (!item->data(kGroupRole).isValid()) return;
        const QString group = item->data(kGroupRole).toString();
        setGroupCollapsed(group, !collapsed_.contains(group));
    });
    connect(sandbox_, &QPushButton::clicked, this, &ConnectionSidebar::sandboxRequested);
    connect(list_, &QListWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        QListWidgetItem* item = list_->itemAt(at);
        if (!item) return;
        const bool header = item->data(kGroupRole).isValid();
        if (!header) list_->setCurrentItem(item);
        QMenu* menu = header ? contextMenuForGroup(item->data(kGroupRole).toString())
                             : contextMenuFor(item->data(kIdRole).toString());
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(list_->viewport()->mapToGlobal(at));
    });
}

QMenu* ConnectionSidebar::contextMenuFor(const QString& id) {
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("connectionMenu"));
    const ConnectionProfile* p = profile(id);
    if (!p) return menu;
    const auto state = figures_.value(id).state;
    const bool open = state != ConnectionState::Stopped;
    QAction* connectAction =
        menu->addAction(tr("Connect"), this, [this, id] { emit toggleRequested(id); });
    connectAction->setEnabled(!open);
    QAction* disconnectAction =
        menu->addAction(tr("Disconnect"), this, [this, id] { emit toggleRequested(id); });
    disconnectAction->setEnabled(open);
    menu->addSeparator();
    QAction* edit = menu->addAction(tr("Edit…"), this, [this, id] { emit editRequested(id); });
    edit->setEnabled(!p->isSandbox);
    QAction* duplicate =
        menu->addAction(tr("Duplicate"), this, [this, id] { emit duplicateRequested(id); });
    duplicate->setEnabled(!p->isSandbox);
    menu->addSeparator();
    menu->addAction(tr("Remove"), this, [this, id] { emit removeRequested(id); });
    return menu;
}

QStringList ConnectionSidebar::membersOf(const QString& group) const {
    QStringList ids;
    for (const auto& p : profiles_)
        if (p.group.trimmed() == group) ids << p.id;
    return ids;
}

QMenu* ConnectionSidebar::contextMenuForGroup(const QString& group) {
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("groupMenu"));
    const QStringList ids = membersOf(group);
    menu->addAction(tr("Connect all in %1").arg(group), this,
                    [this, ids] { emit groupConnectRequested(ids, true); });
    menu->addAction(tr("Disconnect all in %1").arg(group), this,
                    [this, ids] { emit groupConnectRequested(ids, false); });
    menu->addSeparator();
    menu->addAction(collapsed_.contains(group) ? tr("Expand") : tr("Collapse"), this,
                    [this, group] { setGroupCollapsed(group, !collapsed_.contains(group)); });
    return menu;
}

void ConnectionSidebar::setGroupCollapsed(const QString& group, bool collapsed) {
    if (collapsed)
        collapsed_.insert(group);
    else
        collapsed_.remove(group);
    refreshHeaders();
    applyFilter();
}

void ConnectionSidebar::setProfiles(const QList<ConnectionProfile>& profiles) {
    profiles_ = profiles;
    for (const auto& p : profiles)
        if (p.isSandbox) sandbox_->setEnabled(false);
    rebuild();
}

void ConnectionSidebar::addProfile(const ConnectionProfile& profile) {
    addProfiles({profile});
}

void ConnectionSidebar::addProfiles(const QList<ConnectionProfile>& profiles) {
    for (const auto& p : profiles) {
        profiles_.append(p);
        if (p.isSandbox) sandbox_->setEnabled(false);
    }
    if (!profiles.isEmpty()) rebuild();
}

void ConnectionSidebar::updateProfile(const ConnectionProfile& profile) {
    bool regroup = false;
    for (auto& p : profiles_)
        if (p.id == profile.id) {
            regroup = p.group.trimmed() != profile.group.trimmed() || p.name != profile.name;
            p = profile;
        }
    if (regroup) return rebuild();
    if (auto* item = itemFor(profile.id)) refreshItem(item, profile);
    refreshHeaders();
}

void ConnectionSidebar::removeProfile(const QString& id) {
    profiles_.removeIf([&](const ConnectionProfile& p) { return p.id == id; });
    figures_.remove(id);
    clusterNodes_.remove(id);
    rebuild();
}

void ConnectionSidebar::setState(const QString& id, ConnectionState state, const QString& message) {
    ConnectionFigures& f = figures_[id];
    f.state = state;
    f.message = message;
    if (state == ConnectionState::Stopped) f.locks = -1, f.load = -1;
    if (const ConnectionProfile* p = profile(id))
        if (auto* item = itemFor(id)) refreshItem(item, *p);
    refreshHeaders();
}

void ConnectionSidebar::setFigures(const QString& id, int locks, double load) {
    ConnectionFigures& f = figures_[id];
    if (f.locks == locks && f.load == load) return;
    f.locks = locks;
    f.load = load;
    if (const ConnectionProfile* p = profile(id))
        if (auto* item = itemFor(id)) refreshItem(item, *p);
    refreshHeaders();
}

void ConnectionSidebar::rebuild() {
    const QString current = currentId();
    QSignalBlocker block(list_);
    list_->clear();
    for (const SidebarGroup& group : groupConnections(profiles_)) {
        if (!group.name.isEmpty()) {
            auto* header = new QListWidgetItem(list_);
            header->setData(kGroupRole, group.name);
            header->setFlags(Qt::ItemIsEnabled);  // not selectable: actions need a connection
        }
        for (int i : group.members) {
            auto* item = new QListWidgetItem(list_);
            item->setData(kIdRole, profiles_[i].id);
            refreshItem(item, profiles_[i]);
            if (profiles_[i].id == current) list_->setCurrentItem(item);
        }
    }
    refreshHeaders();
    applyFilter();
}

void ConnectionSidebar::refreshItem(QListWidgetItem* item, const ConnectionProfile& p) {
    const ConnectionFigures f = figures_.value(p.id);
    const QString message = figures_.contains(p.id) ? f.message : tr("not connected");
    item->setData(kStateRole, int(f.state));
    item->setIcon(stateDot(f.state));
    QString flags = p.readOnly ? tr(" · read-only") : QString();
    // The state and figures before the address: a narrow sidebar elides the address first.
    QString text = QStringLiteral("%1\n%2%3%4 · %5")
                       .arg(p.name, toString(f.state), figuresText(f), flags, p.displayUrl());
    const ClusterDown down = clusterDown_.value(p.id);
    for (QString node : clusterNodes_.value(p.id)) {
        // A node the cluster cannot reach: its line says so in its state column, in one word
        // that fits the sidebar (the tooltip and the status bar say its slots are unserved).
        if (down.nodes.contains(node.section(QStringLiteral(" · "), 0, 0)))
            node = node.section(QStringLiteral(" · "), 0, -2) + QStringLiteral(" · ") + tr("DOWN");
        text += QStringLiteral("\n   ") + node;
    }
    item->setText(text);
    item->setToolTip(down.said.isEmpty() || message.contains(down.said)
                         ? message
                         : message + QLatin1Char('\n') + down.said);
}

void ConnectionSidebar::refreshHeaders() {
    const QList<SidebarGroup> groups = groupConnections(profiles_);
    for (int row = 0; row < list_->count(); ++row) {
        QListWidgetItem* item = list_->item(row);
        if (!item->data(kGroupRole).isValid()) continue;
        const QString name = item->data(kGroupRole).toString();
        for (const SidebarGroup& g : groups)
            if (g.name == name)
                item->setText(
                    (collapsed_.contains(name) ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) +
                    name + QLatin1Char('\n') + groupHeaderText(g, profiles_, figures_));
    }
}

void ConnectionSidebar::applyFilter() {
    // A filter shows the matching connections of every group, folded or not; a header shows
    // while any of its connections does.
    const QString text = filter_->text().trimmed();
    QListWidgetItem* header = nullptr;
    bool headerNeeded = false;
    auto closeGroup = [&] {
        if (header) header->setHidden(!headerNeeded);
    };
    for (int row = 0; row < list_->count(); ++row) {
        QListWidgetItem* item = list_->item(row);
        if (item->data(kGroupRole).isValid()) {
            closeGroup();
            header = item;
            headerNeeded = false;
            continue;
        }
        const ConnectionProfile* p = profile(item->data(kIdRole).toString());
        const bool matches = p && matchesFilter(*p, text);
        const bool folded =
            header && text.isEmpty() && collapsed_.contains(header->data(kGroupRole).toString());
        item->setHidden(!matches || folded);
        headerNeeded = headerNeeded || matches;
    }
    closeGroup();
}

void ConnectionSidebar::setClusterNodes(const QString& id, const QStringList& nodeLines) {
    clusterNodes_[id] = nodeLines;
    if (const ConnectionProfile* p = profile(id))
        if (auto* item = itemFor(id)) refreshItem(item, *p);
}

void ConnectionSidebar::setClusterHealth(const QString& id, const QString& downNodes,
                                         const QString& slotsWithoutPrimary) {
    if (downNodes.isEmpty()) {
        clusterDown_.remove(id);
    } else {
        ClusterDown down;
        // "redis://127.0.0.1:7002, …" as the engine names them; node lines say "host:port".
        for (const QString& node : downNodes.split(QStringLiteral(", ")))
            down.nodes << node.section(QStringLiteral("//"), -1).section(QLatin1Char('@'), -1);
        down.said =
            tr("cluster down: %1 not answering · slots without a primary: %2")
                .arg(downNodes, slotsWithoutPrimary.isEmpty() ? tr("none (replicas serve them)")
                                                              : slotsWithoutPrimary);
        clusterDown_[id] = down;
    }
    if (const ConnectionProfile* p = profile(id))
        if (auto* item = itemFor(id)) refreshItem(item, *p);
}

QString ConnectionSidebar::currentId() const {
    auto* item = list_->currentItem();
    return item ? item->data(kIdRole).toString() : QString();
}

const ConnectionProfile* ConnectionSidebar::profile(const QString& id) const {
    for (const auto& p : profiles_)
        if (p.id == id) return &p;
    return nullptr;
}

QListWidgetItem* ConnectionSidebar::itemFor(const QString& id) const {
    for (int i = 0; i < list_->count(); ++i)
        if (!list_->item(i)->data(kGroupRole).isValid() &&
            list_->item(i)->data(kIdRole).toString() == id)
            return list_->item(i);
    return nullptr;
}

}  // namespace lockscope::ui

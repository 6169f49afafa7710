#include "widgets/connection_sidebar.h"

#include "widgets/connection_item_delegate.h"

#include <QHBoxLayout>
#include <QLabel>
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
    connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit toggleRequested(item->data(kIdRole).toString());
    });
    connect(sandbox_, &QPushButton::clicked, this, &ConnectionSidebar::sandboxRequested);
    connect(list_, &QListWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        QListWidgetItem* item = list_->itemAt(at);
        if (!item) return;
        list_->setCurrentItem(item);
        QMenu* menu = contextMenuFor(item->data(kIdRole).toString());
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(list_->viewport()->mapToGlobal(at));
    });
}

QMenu* ConnectionSidebar::contextMenuFor(const QString& id) {
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("connectionMenu"));
    const ConnectionProfile* p = profile(id);
    QListWidgetItem* item = itemFor(id);
    if (!p || !item) return menu;
    const auto state = ConnectionState(item->data(kStateRole).toInt());
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

void ConnectionSidebar::setProfiles(const QList<ConnectionProfile>& profiles) {
    list_->clear();
    profiles_.clear();
    for (const auto& p : profiles) addProfile(p);
}

void ConnectionSidebar::addProfile(const ConnectionProfile& profile) {
    profiles_.append(profile);
    auto* item = new QListWidgetItem(list_);
    item->setData(kIdRole, profile.id);
    refreshItem(item, profile, ConnectionState::Stopped, tr("not connected"));
    if (profile.isSandbox) sandbox_->setEnabled(false);
}

void ConnectionSidebar::updateProfile(const ConnectionProfile& profile) {
    for (auto& p : profiles_)
        if (p.id == profile.id) p = profile;
    if (auto* item = itemFor(profile.id))
        refreshItem(item, profile, ConnectionState(item->data(kStateRole).toInt()),
                    item->toolTip());
}

void ConnectionSidebar::removeProfile(const QString& id) {
    delete itemFor(id);
    profiles_.removeIf([&](const ConnectionProfile& p) { return p.id == id; });
}

void ConnectionSidebar::setState(const QString& id, ConnectionState state, const QString& message) {
    if (const ConnectionProfile* p = profile(id))
        if (auto* item = itemFor(id)) refreshItem(item, *p, state, message);
}

void ConnectionSidebar::refreshItem(QListWidgetItem* item, const ConnectionProfile& p,
                                    ConnectionState state, const QString& message) {
    item->setData(kStateRole, int(state));
    item->setIcon(stateDot(state));
    QString flags = p.readOnly ? tr(" · read-only") : QString();
    QString text =
        QStringLiteral("%1\n%2 · %3%4").arg(p.name, p.displayUrl(), toString(state), flags);
    const ClusterDown down = clusterDown_.value(p.id);
    for (QString node : clusterNodes_.value(p.id)) {
        // A node the cluster cannot reach: its line says so in its state column.
        if (down.nodes.contains(node.section(QStringLiteral(" · "), 0, 0)))
            node = node.section(QStringLiteral(" · "), 0, -2) + QStringLiteral(" · ") +
                   tr("DOWN, its slots unserved");
        text += QStringLiteral("\n   ") + node;
    }
    item->setText(text);
    item->setToolTip(down.said.isEmpty() || message.contains(down.said)
                         ? message
                         : message + QLatin1Char('\n') + down.said);
}

void ConnectionSidebar::setClusterNodes(const QString& id, const QStringList& nodeLines) {
    clusterNodes_[id] = nodeLines;
    if (const ConnectionProfile* p = profile(id))
        if (auto* item = itemFor(id))
            refreshItem(item, *p, ConnectionState(item->data(kStateRole).toInt()), item->toolTip());
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
        if (auto* item = itemFor(id))
            refreshItem(item, *p, ConnectionState(item->data(kStateRole).toInt()), item->toolTip());
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
        if (list_->item(i)->data(kIdRole).toString() == id) return list_->item(i);
    return nullptr;
}

}  // namespace lockscope::ui

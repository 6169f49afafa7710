// Issue 35 item 7, the sidebar's cluster node rows: in the real window at 1280×720 with its
// default sidebar width, every node row shows its state whole (the address gives way,
// elided in the middle; then the slots; then the role) and no cell runs past the row. Before,
// the state column was cut to nothing ("│ :27101  0-…60") when a node was down or the nodes
// had addresses of their own. The node lines are what describeClusterMembers writes.
#include <QListWidget>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "ui_test_support.h"
#include "widgets/connection_item_delegate.h"
#include "widgets/connection_sidebar.h"
#include "widgets/main_window.h"

using namespace lockscope;
using namespace lockscope::ui;

namespace {

ConnectionProfile clusterProfile(const QString& id, const QString& name, const std::string& host) {
    ConnectionProfile p;
    p.id = id;
    p.name = name;
    p.endpoint.host = host;
    p.endpoint.port = 6379;
    p.endpoint.tls.enabled = true;
    return p;
}

// Three primaries and a replica each, every node on a host of its own (a real deployment).
QStringList nodesOnHostsOfTheirOwn() {
    return {QStringLiteral("10.20.30.101:6379 · primary · slots 0-5460 · online"),
            QStringLiteral("10.20.30.104:6379 · replica · online"),
            QStringLiteral("10.20.30.102:6379 · primary · slots 5461-10922 · online"),
            QStringLiteral("10.20.30.105:6379 · replica · loading"),
            QStringLiteral("10.20.30.103:6379 · primary · slots 10923-16383 · online"),
            QStringLiteral("10.20.30.106:6379 · replica · online")};
}

// Three primaries on one machine, the second killed.
QStringList nodesOnOneMachine() {
    return {QStringLiteral("127.0.0.1:27101 · primary · slots 0-5460 · online"),
            QStringLiteral("127.0.0.1:27102 · primary · slots 5461-10922 · fail"),
            QStringLiteral("127.0.0.1:27103 · primary · slots 10923-16383 · online")};
}

QListWidgetItem* itemNamed(QListWidget* list, const QString& name) {
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->text().section(QLatin1Char('\n'), 0, 0) == name) return list->item(i);
    return nullptr;
}

}  // namespace

class SidebarClusterRowsTest : public QObject {
    Q_OBJECT

  private slots:
    void everyNodeRowShowsItsStateWholeAtTheDefaultWidth() {
        QTemporaryDir config;
        QSettings settings(config.filePath("lockscope.ini"), QSettings::IniFormat);
        MainWindowOptions o;
        o.auditLogPath = config.filePath("audit.jsonl");
        o.extra = {
            clusterProfile(QStringLiteral("c1"), QStringLiteral("orders cluster"), "10.20.30.101"),
            clusterProfile(QStringLiteral("c2"), QStringLiteral("local cluster"), "127.0.0.1")};
        MainWindow w(settings, o);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(100);  // the sidebar's first width is set a turn after the layout

        ConnectionSidebar* sidebar = w.sidebar();
        sidebar->setClusterNodes(QStringLiteral("c1"), nodesOnHostsOfTheirOwn());
        sidebar->setClusterNodes(QStringLiteral("c2"), nodesOnOneMachine());
        sidebar->setClusterHealth(QStringLiteral("c2"), QStringLiteral("rediss://127.0.0.1:27102"),
                                  QStringLiteral("5461-10922"));
        QListWidget* list = sidebar->list();
        QVERIFY2(sidebar->width() <= 280, qPrintable(QString::number(sidebar->width())));

        const auto* delegate = qobject_cast<ConnectionItemDelegate*>(list->itemDelegate());
        QVERIFY(delegate);
        int rowsChecked = 0;
        for (const QString& name :
             {QStringLiteral("orders cluster"), QStringLiteral("local cluster")}) {
            QListWidgetItem* item = itemNamed(list, name);
            QVERIFY(item);
            QStyleOptionViewItem option;
            option.initFrom(list->viewport());
            option.font = list->font();
            option.rect = list->visualItemRect(item);
            QVERIFY(option.rect.width() > 0);
            const QString text = item->text();
            const QList<QStringList> wanted = ConnectionItemDelegate::nodeRows(text);
            const auto rows = ConnectionItemDelegate::nodeCells(option, text);
            QCOMPARE(rows.size(), wanted.size());
            for (int n = 0; n < int(rows.size()); ++n) {
                const QString row = wanted[n].join(QStringLiteral(" | "));
                const auto& state = rows[n][3];
                // The state is drawn whole, in a box that holds it, inside the row.
                QCOMPARE(state.text, wanted[n][3]);
                QVERIFY2(QFontMetrics(option.font).horizontalAdvance(state.text) <= state.width,
                         qPrintable(row));
                for (const auto& cell : rows[n])
                    QVERIFY2(cell.width == 0 || cell.x + cell.width <= option.rect.right() + 1,
                             qPrintable(row + QStringLiteral(" runs past ") +
                                        QString::number(option.rect.right())));
                ++rowsChecked;
            }
        }
        QCOMPARE(rowsChecked, 9);
        // The down node says so in its state column.
        QVERIFY(
            itemNamed(list, QStringLiteral("local cluster"))
                ->text()
                .contains(QStringLiteral("127.0.0.1:27102 · primary · slots 5461-10922 · DOWN")));
        QVERIFY(testing::saveScreenshot(&w, QStringLiteral("sidebar_cluster_rows")));
        QVERIFY(testing::saveScreenshot(sidebar, QStringLiteral("sidebar_cluster_rows_sidebar")));
    }
};

QTEST_MAIN(SidebarClusterRowsTest)
#include "tst_sidebar_cluster_rows.moc"

// Issue 18: a connection's load budget is editable in the connection dialog (the profile's
// maxLoad, default 5% of a server core), as percent, and a bad value cannot be entered.
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QtTest>

#include "lockscope/endpoint.h"
#include "session/connection_profile.h"
#include "ui_test_support.h"
#include "widgets/connection_dialog.h"

using namespace lockscope;
using namespace lockscope::ui;

class ConnectionDialogBudgetTest : public QObject {
    Q_OBJECT
  private slots:
    void theBudgetIsShownAndEditedAsPercent() {
        ConnectionDialog dialog;
        auto profile = ConnectionProfile::create(QStringLiteral("orders"),
                                                 parseEndpoint("redis://127.0.0.1:6390"));
        profile.maxLoad = 0.02;
        dialog.setProfile(profile);
        auto* budget = dialog.findChild<QDoubleSpinBox*>();
        QVERIFY(budget);
        QCOMPARE(budget->value(), 2.0);
        QCOMPARE(budget->suffix(), QStringLiteral(" %"));
        QCOMPARE(dialog.profile().maxLoad, 0.02);
        budget->setValue(12.5);
        QCOMPARE(dialog.profile().maxLoad, 0.125);
        budget->setValue(0.0);  // below the least budget: held at 0.1%
        QVERIFY(dialog.profile().maxLoad > 0.0);
        budget->setValue(500.0);  // above a whole core: held at 100%
        QCOMPARE(dialog.profile().maxLoad, 1.0);
        budget->setValue(5.0);
        dialog.resize(620, dialog.sizeHint().height());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(testing::saveScreenshot(&dialog, QStringLiteral("connection-dialog-budget")));
    }

    // A check box does not wrap: at 620 px (and at the dialog's least width) each one is as
    // wide as its text needs, so none is cut ("Remember it…" was).
    void noCheckBoxIsCutAtNarrowWidths() {
        ConnectionDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        for (int width : {620, dialog.minimumSizeHint().width()}) {
            dialog.resize(width, dialog.sizeHint().height());
            QCoreApplication::processEvents();
            const auto boxes = dialog.findChildren<QCheckBox*>();
            QVERIFY(!boxes.isEmpty());
            for (const QCheckBox* box : boxes) {
                if (!box->isVisibleTo(&dialog)) continue;
                QVERIFY2(box->width() >= box->sizeHint().width(),
                         qPrintable(QStringLiteral("%1 px wide at %2: %3")
                                        .arg(box->width())
                                        .arg(width)
                                        .arg(box->text())));
            }
        }
        dialog.resize(620, dialog.sizeHint().height());
        QCoreApplication::processEvents();
        QVERIFY(testing::saveScreenshot(&dialog, QStringLiteral("connection-dialog-620")));
    }
};

QTEST_MAIN(ConnectionDialogBudgetTest)
#include "tst_connection_dialog_budget.moc"

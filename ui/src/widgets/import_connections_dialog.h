#pragma once
// Import connections: what a connections file holds (RedisInsight, Another Redis Desktop
// Manager, RESP.app, LockScope, a URL list), entry by entry — ready, imported with notes, or
// failed and why — and which names the sidebar already has. The operator ticks what to import;
// nothing is imported silently and a failed entry cannot be ticked.

#include <QDialog>
#include <QStringList>
#include <vector>

#include "lockscope/fleet/connection_import.h"

class QCheckBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace lockscope::ui {

class ImportConnectionsDialog : public QDialog {
    Q_OBJECT
  public:
    enum Column { Name, Group, Address, Kind, Notes };

    ImportConnectionsDialog(fleet::ImportReport report, const QStringList& existingNames,
                            QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    QLabel* summary() const { return summary_; }
    QCheckBox* rememberPasswords() const { return remember_; }
    QPushButton* importButton() const { return importButton_; }
    // The ticked entries' connections, in file order.
    std::vector<fleet::PortableConnection> chosen() const;

  private:
    void fillRow(int row, const fleet::ImportEntry& entry, bool nameTaken);
    void updateImportButton();

    fleet::ImportReport report_;
    QTableWidget* table_;
    QLabel* summary_;
    QCheckBox* remember_;
    QPushButton* importButton_;
};

}  // namespace lockscope::ui

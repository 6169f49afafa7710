#include "widgets/import_connections_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lockscope::ui {
namespace {

QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString address(const fleet::PortableConnection& c) {
    if (c.topology == fleet::Topology::Sentinel) {
        QStringList sentinels;
        for (const auto& s : c.sentinels) sentinels << text(s.host) + ":" + QString::number(s.port);
        return sentinels.join(", ") + " #" + text(c.sentinelService);
    }
    return text(c.endpoint.display());
}

QString kind(const fleet::PortableConnection& c) {
    QString k = text(fleet::topologyName(c.topology));
    if (c.endpoint.tls.enabled) k += c.endpoint.tls.insecure ? ", TLS NOT VERIFIED" : ", TLS";
    if (c.readOnly) k += ", read-only";
    return k;
}

QString summaryText(const fleet::ImportReport& report) {
    using fleet::EntryStatus;
    return QObject::tr(
               "%1: %2 entries — %3 ready, %4 with notes, %5 failed. Passwords go to the "
               "keychain (or are asked for at connect); none is written to the settings.")
        .arg(text(fleet::formatName(report.format)))
        .arg(report.entries.size())
        .arg(report.count(EntryStatus::Imported))
        .arg(report.count(EntryStatus::ImportedWithNotes))
        .arg(report.count(EntryStatus::Failed));
}

}  // namespace

ImportConnectionsDialog::ImportConnectionsDialog(fleet::ImportReport report,
                                                 const QStringList& existingNames, QWidget* parent)
    : QDialog(parent),
      report_(std::move(report)),
      table_(new QTableWidget(this)),
      summary_(new QLabel(summaryText(report_), this)),
      remember_(new QCheckBox(tr("Remember the imported passwords in the keychain"), this)) {
    setWindowTitle(tr("Import connections"));
    summary_->setWordWrap(true);
    remember_->setChecked(true);
    table_->setColumnCount(5);
    table_->setHorizontalHeaderLabels(
        {tr("Connection"), tr("Group"), tr("Address"), tr("Kind"), tr("Notes")});
    table_->setRowCount(static_cast<int>(report_.entries.size()));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    for (int row = 0; row < table_->rowCount(); ++row) {
        const auto& entry = report_.entries[static_cast<std::size_t>(row)];
        bool taken = entry.connection && existingNames.contains(text(entry.connection->name));
        fillRow(row, entry, taken);
    }
    table_->resizeColumnsToContents();
    table_->setColumnWidth(Notes, 360);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    importButton_ = buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(table_, &QTableWidget::itemChanged, this, [this] { updateImportButton(); });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    layout->addWidget(remember_);
    layout->addWidget(buttons);
    updateImportButton();
    resize(980, 460);
}

void ImportConnectionsDialog::fillRow(int row, const fleet::ImportEntry& entry, bool nameTaken) {
    QStringList notes;
    for (const auto& n : entry.notes) notes << text(n);
    if (nameTaken)
        notes.prepend(
            tr("the sidebar already has a connection of this name: tick it to import "
               "it as a second one"));
    const bool failed = !entry.connection;
    auto* name = new QTableWidgetItem(failed ? tr("entry %1").arg(entry.position)
                                             : text(entry.connection->name));
    name->setFlags(failed ? Qt::ItemIsSelectable
                          : Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    if (!failed) name->setCheckState(nameTaken ? Qt::Unchecked : Qt::Checked);
    table_->setItem(row, Name, name);
    if (!failed) {
        table_->setItem(row, Group, new QTableWidgetItem(text(entry.connection->group)));
        table_->setItem(row, Address, new QTableWidgetItem(address(*entry.connection)));
        table_->setItem(row, Kind, new QTableWidgetItem(kind(*entry.connection)));
    }
    QString noteText = failed ? tr("not imported: %1").arg(notes.join("; ")) : notes.join("; ");
    auto* noteItem = new QTableWidgetItem(noteText);
    noteItem->setToolTip(notes.join("\n"));
    if (failed)
        noteItem->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    else if (!notes.isEmpty())
        noteItem->setForeground(QColor(0xb3, 0x6b, 0x00));  // amber, as a warning finding
    table_->setItem(row, Notes, noteItem);
}

std::vector<fleet::PortableConnection> ImportConnectionsDialog::chosen() const {
    std::vector<fleet::PortableConnection> out;
    for (int row = 0; row < table_->rowCount(); ++row) {
        const auto& entry = report_.entries[static_cast<std::size_t>(row)];
        if (entry.connection && table_->item(row, Name)->checkState() == Qt::Checked)
            out.push_back(*entry.connection);
    }
    return out;
}

void ImportConnectionsDialog::updateImportButton() {
    const auto count = static_cast<int>(chosen().size());
    importButton_->setText(count == 1 ? tr("Import 1 connection")
                                      : tr("Import %1 connections").arg(count));
    importButton_->setEnabled(count > 0);
}

}  // namespace lockscope::ui

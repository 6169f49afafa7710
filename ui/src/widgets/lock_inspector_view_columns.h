#pragma once
// The lock table's columns: their order and their widths. Every shown column, Findings (the
// last, stretched) included, fits the table's width without horizontal scrolling wherever
// the least widths allow it (at 1280 px with the sidebar open and the Instance and Node
// columns shown): numbers keep the width of their longest value and are never cut, the text
// columns (key, names, holder, findings) give way down to a least width and elide. A width
// the operator dragged is theirs: kept, and the others fit around it.

#include <QObject>
#include <QTimer>
#include <map>

class QTableView;

namespace lockscope::ui {

class LockTableColumns : public QObject {
    Q_OBJECT
  public:
    // Sets the table's column order and widths, and keeps them fitted as it is resized.
    explicit LockTableColumns(QTableView& table);

    // Fits the widths to the table's width now (after a column was shown or hidden).
    void fit();
    // The width a number column needs: its title, its usual longest value and the values on
    // screen, never less than it needed before.
    int numberWidth(int column);
    bool isOperatorSized(int column) const { return operatorWidths_.count(column) > 0; }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void rememberOperatorWidth(int column, int oldSize, int newSize);
    int headerWidth(int column) const;
    int lastShownColumn() const;

    QTableView& table_;
    // The table's viewport, kept from the start: its events still reach the filter while the
    // table is destroyed, when asking the half-destroyed table for it is undefined.
    QObject* const viewport_;
    std::map<int, int> operatorWidths_;  // by column: widths the operator dragged
    std::map<int, int> widestNumbers_;   // by column: the widest a number needed
    bool fitting_ = false;               // resizes made by fit(), not by the operator
    QTimer fitTimer_;
};

}  // namespace lockscope::ui

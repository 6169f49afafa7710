#pragma once
// How the sidebar draws a connection: its name, its address and state, and for a Redis
// Cluster its nodes as a tree with aligned columns (address, role, slots, state), one line
// each. The item's text stays what it was ("name\nurl · state\n   node · role · slots … ·
// state"), so a reader of the list (a test, an accessibility tool) gets the same words; only
// the drawing changes: the node lines wrapped mid-phrase in a 240-px sidebar.

#include <QStyledItemDelegate>

namespace lockscope::ui {

class ConnectionItemDelegate : public QStyledItemDelegate {
    Q_OBJECT
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    // An item with this role is a group's header ("▾ production · 3 connections · …"),
    // drawn as one bold line.
    static constexpr int GroupHeaderRole = Qt::UserRole + 3;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // One node line ("127.0.0.1:7000 · primary · slots 0-5460 · online") as its columns:
    // address, role, slots ("" for a replica), state. Public for the tests.
    static QStringList nodeColumns(const QString& line);
    // The node lines of an item's text as drawn: the host left out when every node has the
    // same one (the port names the node), the port when every node has the same one; the
    // role in the slots column ("replica"; a primary's slots say it is one), the state when
    // every node is online.
    static QList<QStringList> nodeRows(const QString& text);

    // A node line's cell as paint draws it: x from the columns' left edge, its width, and
    // the text drawn there (elided when the column had to give way).
    struct Cell {
        int x = 0;
        int width = 0;
        QString text;
    };
    // The node rows of an item's text laid out as paint draws them in option.rect (x in the
    // item's coordinates): when they do not fit, the address gives way first (elided in the
    // middle, down to about its port), then the slots, then the role; the state is always
    // drawn whole. Public for the tests.
    static QList<QList<Cell>> nodeCells(const QStyleOptionViewItem& option, const QString& text);

  private:
    void paintGroupHeader(QPainter* painter, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const;
};

}  // namespace lockscope::ui

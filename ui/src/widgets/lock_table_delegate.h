#pragma once
// Paints the lock table: the remaining TTL as a bar whose colour turns as expiry nears,
// "no TTL" as a problem badge, doctor findings as badges coloured by severity, stale rows
// (connection down) in grey without a bar, and a fading highlight on rows
// whose holder just changed.

#include <QStyledItemDelegate>
#include <functional>

namespace lockscope::ui {

class LockTableDelegate : public QStyledItemDelegate {
    Q_OBJECT
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // Green above half the TTL, amber down to a fifth, red below: shared with the plot.
    static QColor ttlColor(double fraction);

  protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

  private:
    void paintTtl(QPainter* painter, const QStyleOptionViewItem& option,
                  const QModelIndex& index) const;
    void paintBadges(QPainter* painter, const QStyleOptionViewItem& option,
                     const QStringList& badges,
                     const std::function<QColor(const QString&)>& colorOf) const;
};

}  // namespace lockscope::ui

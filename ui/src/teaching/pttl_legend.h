#pragma once
// The PTTL plot's legend as a strip of its own above the plot, so it never covers the curves
// nor takes the plot's height: each entry a short line drawn with the curve's own pen (its
// colour and its dash) and the node's name.

#include <QPen>
#include <QString>
#include <QWidget>
#include <vector>

namespace lockscope::ui {

class PttlLegend : public QWidget {
  public:
    struct Entry {
        QString name;
        QPen pen;
    };

    explicit PttlLegend(QWidget* parent = nullptr);

    void setEntries(std::vector<Entry> entries);
    const std::vector<Entry>& entries() const { return entries_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    std::vector<Entry> entries_;
};

}  // namespace lockscope::ui

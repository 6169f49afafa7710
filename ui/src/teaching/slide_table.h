#pragma once
// The outcome table as a slide draws it: its own cells painted at a type in proportion to
// the slide, not the panel's widget scaled into a corner. The widget, laid out for a
// 16 px desktop font, came out at 1.7 % of the slide's height with a quarter of the slide
// left empty under it; here the labels wrap onto a second line instead of being cut, and
// the type is the largest that lets the whole table fit its box.

#include <QColor>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <vector>

class QPainter;

namespace lockscope::ui {

class OutcomeComparison;

class SlideTable {
  public:
    // The shown rows and columns of the table as it stands (hidden ones left out).
    explicit SlideTable(const OutcomeComparison& comparison);

    // The largest type, from `largest` px down to `smallest`, at which the table fits
    // `width` and `height` with its labels whole; its height there. Call before draw().
    void fit(double width, double height, int largest, int smallest);
    int pixels() const { return px_; }
    double height() const { return height_; }
    // Whether every label shows whole (wrapped, never elided) at the chosen type.
    bool labelsWhole() const;

    void draw(QPainter& painter, const QRectF& into, const QColor& text, const QColor& grid) const;

  private:
    struct Cell {
        QString text;
        QColor fill;
    };
    struct Layout {
        double labelWidth = 0, headerHeight = 0, height = 0;
        std::vector<double> columns, rows;
        bool labelsWhole = true;
    };
    Layout layout(double width, int px) const;

    QStringList headers_, labels_;
    std::vector<std::vector<Cell>> cells_;  // [row][column]
    int px_ = 0;
    double width_ = 0, height_ = 0;
    Layout layout_;
};

}  // namespace lockscope::ui

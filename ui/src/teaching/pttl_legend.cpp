#include "pttl_legend.h"

#include <QPainter>

#include "lane_fonts.h"

namespace lockscope::ui {

namespace {

constexpr int kSample = 36;  // the line sample's length: long enough to show its dash
constexpr int kGap = 18;

}  // namespace

PttlLegend::PttlLegend(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void PttlLegend::setEntries(std::vector<Entry> entries) {
    entries_ = std::move(entries);
    setVisible(!entries_.empty());
    updateGeometry();
    update();
}

QSize PttlLegend::sizeHint() const {
    return {200, QFontMetrics(LaneFonts::axis()).height() + 6};
}

void PttlLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setFont(LaneFonts::axis());
    const QFontMetrics fm(p.font());
    const int mid = height() / 2;
    int x = 4;
    for (const Entry& e : entries_) {
        p.setPen(e.pen);
        p.drawLine(x, mid, x + kSample, mid);
        x += kSample + 6;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(x, 0, fm.horizontalAdvance(e.name) + 2, height()), Qt::AlignVCenter,
                   e.name);
        x += fm.horizontalAdvance(e.name) + kGap;
    }
}

}  // namespace lockscope::ui

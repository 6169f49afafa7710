#include "timeline_export.h"

#include <QFile>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QWidget>

namespace lockscope::ui {

bool exportWidgetPng(QWidget* widget, const QString& path, QString* error) {
    QPixmap pixmap = widget->grab();
    if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
        if (error) *error = QObject::tr("Could not write %1").arg(path);
        return false;
    }
    return true;
}

bool exportWidgetPdf(QWidget* widget, const QString& path, const QString& title, QString* error) {
    {
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly)) {
            if (error)
                *error = QObject::tr("Could not write %1: %2").arg(path, probe.errorString());
            return false;
        }
    }
    QPdfWriter writer(path);
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("LockScope"));
    // One page the shape of the widget, at 96 dpi: a slide, not a letter.
    const int dpi = 96;
    writer.setResolution(dpi);
    QSizeF points(widget->width() * 72.0 / dpi, widget->height() * 72.0 / dpi);
    writer.setPageSize(QPageSize(points, QPageSize::Point, title, QPageSize::ExactMatch));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter;
    if (!painter.begin(&writer)) {
        if (error) *error = QObject::tr("Could not start a PDF at %1").arg(path);
        return false;
    }
    QRect page = painter.viewport();
    double scale =
        std::min(double(page.width()) / widget->width(), double(page.height()) / widget->height());
    painter.scale(scale, scale);
    widget->render(&painter, QPoint(), QRegion(),
                   QWidget::DrawWindowBackground | QWidget::DrawChildren);
    painter.end();
    return true;
}

}  // namespace lockscope::ui

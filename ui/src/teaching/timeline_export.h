#pragma once
// The timeline for slides: a widget (the lanes, the PTTL plot and their title) written as
// a PNG (QWidget::grab) or as a one-page PDF sized to it (QPdfWriter + QWidget::render).

#include <QString>

class QWidget;

namespace lockscope::ui {

bool exportWidgetPng(QWidget* widget, const QString& path, QString* error = nullptr);
bool exportWidgetPdf(QWidget* widget, const QString& path, const QString& title,
                     QString* error = nullptr);

}  // namespace lockscope::ui

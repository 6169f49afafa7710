#include "export_options.h"

#include <QActionGroup>
#include <QApplication>
#include <QInputDialog>
#include <QMenu>

namespace lockscope::ui {

namespace {

constexpr QSize kPresets[] = {{1280, 720}, {1600, 900}, {1920, 1080}};

QString sizeText(QSize s) {
    return QStringLiteral("%1×%2").arg(s.width()).arg(s.height());
}

}  // namespace

ExportOptions::ExportOptions(QObject* parent) : QObject(parent) {}

bool ExportOptions::setSize(QSize size) {
    if (size.width() < kMinimum.width() || size.height() < kMinimum.height() ||
        size.width() > kMaximum.width() || size.height() > kMaximum.height())
        return false;
    size_ = size;
    checkCurrent();
    return true;
}

void ExportOptions::setScale(double scale) {
    scale_ = scale >= 1.5 ? 2.0 : 1.0;
    checkCurrent();
}

void ExportOptions::addTo(QMenu* menu) {
    QMenu* sizeMenu = menu->addMenu(tr("Slide size"));
    sizes_ = new QActionGroup(this);
    for (QSize preset : kPresets) {
        QAction* a =
            sizeMenu->addAction(sizeText(preset), this, [this, preset] { setSize(preset); });
        a->setCheckable(true);
        a->setData(preset);
        sizes_->addAction(a);
    }
    QAction* custom = sizeMenu->addAction(tr("Custom…"), this, [this] { askCustomSize(); });
    custom->setCheckable(true);
    custom->setObjectName(QStringLiteral("customSlideSize"));
    sizes_->addAction(custom);
    QMenu* scaleMenu = menu->addMenu(tr("Scale"));
    scales_ = new QActionGroup(this);
    for (double s : {1.0, 2.0}) {
        QAction* a = scaleMenu->addAction(
            s == 1.0 ? tr("1× (the slide's pixels)") : tr("2× (twice as sharp)"), this,
            [this, s] { setScale(s); });
        a->setCheckable(true);
        a->setData(s);
        scales_->addAction(a);
    }
    checkCurrent();
}

void ExportOptions::askCustomSize() {
    QWidget* parent = QApplication::activeWindow();
    bool ok = false;
    const int w = QInputDialog::getInt(parent, tr("Slide size"), tr("Width in pixels:"),
                                       size_.width(), kMinimum.width(), kMaximum.width(), 10, &ok);
    if (ok) {
        const int h =
            QInputDialog::getInt(parent, tr("Slide size"), tr("Height in pixels:"), size_.height(),
                                 kMinimum.height(), kMaximum.height(), 10, &ok);
        if (ok) setSize({w, h});
    }
    checkCurrent();  // a cancelled dialog leaves the size, and its check, as they were
}

void ExportOptions::checkCurrent() {
    if (sizes_) {
        QAction* match = nullptr;
        for (QAction* a : sizes_->actions())
            if (a->data().toSize() == size_) match = a;
        for (QAction* a : sizes_->actions())
            if (a->objectName() == QLatin1String("customSlideSize")) {
                a->setText(match ? tr("Custom…") : tr("Custom (%1)…").arg(sizeText(size_)));
                if (!match) match = a;
            }
        match->setChecked(true);
    }
    if (scales_)
        for (QAction* a : scales_->actions()) a->setChecked(a->data().toDouble() == scale_);
}

}  // namespace lockscope::ui

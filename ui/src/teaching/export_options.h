#pragma once
// The slide size and scale an export uses, chosen in the export menu: 1280×720, 1600×900,
// 1920×1080 or a custom size, at 1× or 2× (2× by default, sharp on a projector). The menu
// items are checkable and exclusive, so the menu shows what the next export will be.

#include <QObject>
#include <QSize>

class QMenu;
class QActionGroup;

namespace lockscope::ui {

class ExportOptions : public QObject {
    Q_OBJECT

  public:
    static constexpr QSize kMinimum{320, 240};
    static constexpr QSize kMaximum{8000, 8000};

    explicit ExportOptions(QObject* parent = nullptr);

    QSize size() const { return size_; }
    double scale() const { return scale_; }
    // A size in [kMinimum, kMaximum] (else false, nothing changes); checks "Custom" when it is
    // none of the presets.
    bool setSize(QSize size);
    void setScale(double scale);  // 1 or 2

    // Adds "Slide size" and "Scale" submenus to `menu`.
    void addTo(QMenu* menu);

  private:
    void askCustomSize();
    void checkCurrent();

    QSize size_{1600, 900};
    double scale_ = 2.0;
    QActionGroup* sizes_ = nullptr;
    QActionGroup* scales_ = nullptr;
};

}  // namespace lockscope::ui

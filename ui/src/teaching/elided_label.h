#pragma once
// A one-line label that elides its text to the width it is given instead of widening the
// window (a long EVALSHA line must not push the panel off the projector).

#include <QLabel>
#include <QResizeEvent>

namespace lockscope::ui {

class ElidedLabel : public QLabel {
  public:
    explicit ElidedLabel(QWidget* parent = nullptr) : QLabel(parent) {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        setTextFormat(Qt::PlainText);
    }

    void setFullText(const QString& text) {
        full_ = text;
        setToolTip(text);
        elide();
    }
    QString fullText() const { return full_; }

  protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        elide();
    }

  private:
    void elide() {
        setText(
            fontMetrics().elidedText(full_, Qt::ElideRight, std::max(0, contentsRect().width())));
    }

    QString full_;
};

}  // namespace lockscope::ui

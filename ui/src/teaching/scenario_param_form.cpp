#include "scenario_param_form.h"

#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <limits>

#include "sim_text.h"

namespace lockscope::ui {
namespace {

int clampToInt(std::int64_t v) {
    return static_cast<int>(std::clamp<std::int64_t>(v, std::numeric_limits<int>::min(),
                                                     std::numeric_limits<int>::max()));
}

QString suffixOf(const QString& name) {
    if (name.endsWith(QLatin1String("_ms"))) return QStringLiteral(" ms");
    if (name.endsWith(QLatin1String("_s"))) return QStringLiteral(" s");
    return {};
}

}  // namespace

ScenarioParamForm::ScenarioParamForm(QWidget* parent)
    : QWidget(parent), form_(new QFormLayout(this)) {
    form_->setContentsMargins(0, 0, 0, 0);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form_->setLabelAlignment(Qt::AlignLeft);
}

void ScenarioParamForm::setScenario(const sim::Scenario& scenario,
                                    const sim::ScenarioParams& values) {
    while (form_->rowCount() > 0) form_->removeRow(0);
    editors_.clear();
    labels_.clear();
    defaults_.clear();
    for (const sim::ParamSpec& spec : scenario.params) {
        QString name = qs(spec.name);
        auto* box = new QSpinBox;
        box->setObjectName(QStringLiteral("param_") + name);
        box->setRange(clampToInt(spec.min), clampToInt(spec.max));
        box->setValue(clampToInt(values.get(spec.name)));
        box->setSuffix(suffixOf(name));
        box->setKeyboardTracking(false);      // re-run on Enter or arrows, not on every digit
        box->setFocusPolicy(Qt::ClickFocus);  // the arrow keys step the story until clicked
        connect(box, &QSpinBox::editingFinished, this, &ScenarioParamForm::editingDone);
        box->setGroupSeparatorShown(true);
        QString tip = tr("%1\nrange %2 … %3, default %4")
                          .arg(qs(spec.description))
                          .arg(spec.min)
                          .arg(spec.max)
                          .arg(spec.defaultValue);
        box->setToolTip(tip);
        auto* label = new QLabel(name);
        label->setToolTip(tip);
        form_->addRow(label, box);
        editors_.insert(name, box);
        labels_.insert(name, label);
        defaults_.insert(name, spec.defaultValue);
        connect(box, &QSpinBox::valueChanged, this, [this, name](int v) {
            markChanged();
            emit edited(name, v);
        });
    }
    markChanged();
}

bool ScenarioParamForm::isChanged(const QString& name) const {
    QSpinBox* box = editors_.value(name);
    return box && defaults_.contains(name) && box->value() != defaults_.value(name);
}

void ScenarioParamForm::markChanged() {
    for (auto it = labels_.begin(); it != labels_.end(); ++it) {
        const bool changed = isChanged(it.key());
        QFont font = it.value()->font();
        font.setBold(changed);
        it.value()->setFont(font);
        it.value()->setText(changed ? QStringLiteral("● %1").arg(it.key()) : it.key());
    }
}

void ScenarioParamForm::resetToDefaults() {
    emit resetRequested();
}

void ScenarioParamForm::setValues(const sim::ScenarioParams& values) {
    for (const sim::ParamSpec& spec : values.specs()) {
        QSpinBox* box = editors_.value(qs(spec.name));
        if (!box) continue;
        QSignalBlocker block(box);
        box->setValue(clampToInt(values.get(spec.name)));
    }
    markChanged();
}

}  // namespace lockscope::ui

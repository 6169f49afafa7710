#pragma once
// One editor per parameter of the loaded scenario (TTL, job duration, instances, pause
// length...), generated from its ParamSpecs with their ranges; an edit is reported at once
// so the panel re-runs the story.

#include <QMap>
#include <QWidget>

#include "lockscope/sim/scenario.h"

class QFormLayout;
class QSpinBox;

namespace lockscope::ui {

class ScenarioParamForm : public QWidget {
    Q_OBJECT
  public:
    explicit ScenarioParamForm(QWidget* parent = nullptr);

    void setScenario(const sim::Scenario& scenario, const sim::ScenarioParams& values);
    // Shows these values without reporting edits (after a refused value).
    void setValues(const sim::ScenarioParams& values);
    QSpinBox* editor(const QString& name) const { return editors_.value(name); }
    QStringList names() const { return editors_.keys(); }

  signals:
    void edited(const QString& name, qint64 value);
    void editingDone();  // Enter or focus out: the keys can go back to the replay

  private:
    QFormLayout* form_;
    QMap<QString, QSpinBox*> editors_;
};

}  // namespace lockscope::ui

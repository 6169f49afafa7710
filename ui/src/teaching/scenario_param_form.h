#pragma once
// One editor per parameter of the loaded scenario (TTL, job duration, instances, pause
// length...), generated from its ParamSpecs with their ranges; an edit is reported at once
// so the panel re-runs the story. A value changed from the story's default is marked (its
// name in bold with a dot), so a class sees what the teacher altered.

#include <QMap>
#include <QWidget>

#include "lockscope/sim/scenario.h"

class QFormLayout;
class QLabel;
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
    bool isChanged(const QString& name) const;

  public slots:
    void resetToDefaults();  // every parameter back to the story's default, one re-run

  signals:
    void edited(const QString& name, qint64 value);
    void resetRequested();
    void editingDone();  // Enter or focus out: the keys can go back to the replay

  private:
    QFormLayout* form_;
    void markChanged();

    QMap<QString, QSpinBox*> editors_;
    QMap<QString, QLabel*> labels_;
    QMap<QString, qint64> defaults_;
};

}  // namespace lockscope::ui

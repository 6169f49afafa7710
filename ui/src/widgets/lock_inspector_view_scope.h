#pragma once
// The lock table's scope control beside its filter (issue 36): all connections, one group of
// them, or one connection. Lists the groups and connections that have an instance in the
// table, so a sidebar of fifty saved connections offers only those connected.

#include <QComboBox>

#include "models/row_scope.h"

namespace lockscope::ui {

class ConnectionHub;
class LockTableModel;

class LockScopeBox : public QComboBox {
    Q_OBJECT
  public:
    LockScopeBox(const ConnectionHub& hub, const LockTableModel& model, QWidget* parent = nullptr);

    RowScope scope() const;
    // Lists again what the table's instances belong to now; keeps the choice while it is
    // still there, else falls back to all connections (and says so through scopeChanged).
    void refresh();
    // Chooses a scope that refresh() listed (false: no such group or connection).
    bool choose(const RowScope& scope);

  signals:
    void scopeChanged(const lockscope::ui::RowScope& scope);

  private:
    const ConnectionHub& hub_;
    const LockTableModel& model_;
};

}  // namespace lockscope::ui

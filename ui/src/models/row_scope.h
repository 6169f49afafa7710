#pragma once
// Which connections' locks the lock table shows (issue 36: a table across dozens of
// connections): all of them, one group's, or one connection's. Each instance of the table
// (a server, a cluster primary) is told the connection it belongs to and that connection's
// group; a cluster's nodes belong to the cluster's connection.

#include <QString>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace lockscope::ui {

struct RowScope {
    QString group;         // non-empty: only the connections of this group
    QString connectionId;  // non-empty: only this connection (then the group is not asked)

    bool isAll() const { return group.isEmpty() && connectionId.isEmpty(); }
    static RowScope all() { return {}; }
    static RowScope ofGroup(const QString& name) { return {name, {}}; }
    static RowScope ofConnection(const QString& id) { return {{}, id}; }
    friend bool operator==(const RowScope&, const RowScope&) = default;
};

class InstanceScopes {
  public:
    // false when the instance already belonged there.
    bool set(std::string_view instance, const QString& connectionId, const QString& group) {
        Belonging& known = byInstance_[std::string(instance)];
        if (known.connectionId == connectionId && known.group == group) return false;
        known = {connectionId, group};
        return true;
    }
    void forget(std::string_view instance) {
        if (auto it = byInstance_.find(instance); it != byInstance_.end()) byInstance_.erase(it);
    }
    // An instance not told its connection yet is in no scope but all: its rows show once it is.
    bool inScope(std::string_view instance, const RowScope& scope) const {
        if (scope.isAll()) return true;
        const auto it = byInstance_.find(instance);
        if (it == byInstance_.end()) return false;
        if (!scope.connectionId.isEmpty()) return it->second.connectionId == scope.connectionId;
        return it->second.group == scope.group;
    }

  private:
    struct Belonging {
        QString connectionId;
        QString group;
    };
    std::map<std::string, Belonging, std::less<>> byInstance_;
};

}  // namespace lockscope::ui

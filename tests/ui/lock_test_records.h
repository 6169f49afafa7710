#pragma once
// Lock records for the table model's and the filter proxy's tests: one instance, keys
// lock:{rN} with tokens tN, seeded random TTLs (every ninth without one).

#include <QString>
#include <QVector>
#include <chrono>
#include <memory>
#include <random>
#include <string>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::ui::testing {

inline const QString kInstance = QStringLiteral("redis://127.0.0.1:1");

class Records {
  public:
    explicit Records(unsigned seed) : random_(seed) {}

    inspect::LockRecord make(int i) {
        inspect::LockRecord r;
        r.instance = instance_;
        r.key = "lock:{r" + std::to_string(i) + "}";
        r.resourceOffset = 6;
        r.resourceLength = std::uint16_t(r.key.size() - 7);
        r.token = "t" + std::to_string(i);
        r.pttlMs = i % 9 == 0 ? -1 : std::int64_t(random_() % 600'000);
        r.observedAt = r.firstSeen = r.lastChange = now_;
        return r;
    }
    QVector<inspect::LockRecord> range(int from, int to) {
        QVector<inspect::LockRecord> out;
        for (int i = from; i < to; ++i) out.append(make(i));
        return out;
    }
    std::mt19937& random() { return random_; }

  private:
    std::mt19937 random_;
    std::shared_ptr<const std::string> instance_ =
        std::make_shared<const std::string>(kInstance.toStdString());
    std::chrono::steady_clock::time_point now_ = std::chrono::steady_clock::now();
};

}  // namespace lockscope::ui::testing

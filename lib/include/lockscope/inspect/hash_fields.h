#pragma once
// A record's hash fields (Redisson's "<uuid>:<threadId>" -> count) or sorted-set members:
// most locks are strings and have none, so a record keeps one pointer for them, null while
// empty, where a std::vector took 24 bytes (issue 37 item 7: 16 MB a million locks). It
// reads and fills like the vector it holds, and converts to one.

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace lockscope::inspect {

struct HashField {
    std::string field;
    std::string value;
    bool operator==(const HashField&) const = default;
};

class HashFields {
  public:
    using Vector = std::vector<HashField>;
    using value_type = HashField;
    using iterator = Vector::iterator;
    using const_iterator = Vector::const_iterator;

    HashFields() = default;
    HashFields(Vector fields) { *this = std::move(fields); }  // NOLINT: as the vector
    HashFields(std::initializer_list<HashField> fields) : HashFields(Vector(fields)) {}
    HashFields(const HashFields& other) { *this = other; }
    HashFields(HashFields&&) noexcept = default;
    ~HashFields() = default;
    HashFields& operator=(const HashFields& other) {
        if (this != &other)
            fields_ = other.empty() ? nullptr : std::make_unique<Vector>(*other.fields_);
        return *this;
    }
    HashFields& operator=(HashFields&&) noexcept = default;
    HashFields& operator=(std::initializer_list<HashField> fields) {
        return *this = Vector(fields);
    }
    HashFields& operator=(Vector fields) {
        fields_ = fields.empty() ? nullptr : std::make_unique<Vector>(std::move(fields));
        return *this;
    }

    // The fields as a vector (an empty one while there are none).
    const Vector& all() const { return fields_ ? *fields_ : noFields(); }
    operator const Vector&() const { return all(); }  // NOLINT: reads as the vector

    bool empty() const { return !fields_ || fields_->empty(); }
    std::size_t size() const { return fields_ ? fields_->size() : 0; }
    const HashField& operator[](std::size_t i) const { return (*fields_)[i]; }
    HashField& operator[](std::size_t i) { return (*fields_)[i]; }
    const HashField& front() const { return fields_->front(); }
    const HashField& back() const { return fields_->back(); }
    HashField& back() { return fields_->back(); }
    const HashField* data() const { return all().data(); }
    const_iterator begin() const { return all().begin(); }
    const_iterator end() const { return all().end(); }
    iterator begin() { return grown().begin(); }
    iterator end() { return grown().end(); }

    void push_back(HashField field) { grown().push_back(std::move(field)); }
    template <class... Args>
    HashField& emplace_back(Args&&... args) {
        return grown().emplace_back(std::forward<Args>(args)...);
    }
    void reserve(std::size_t n) {
        if (n > 0) grown().reserve(n);
    }
    void clear() { fields_.reset(); }
    void swap(HashFields& other) noexcept { fields_.swap(other.fields_); }

    friend bool operator==(const HashFields& a, const HashFields& b) { return a.all() == b.all(); }

  private:
    static const Vector& noFields() {
        static const Vector none;
        return none;
    }
    Vector& grown() {
        if (!fields_) fields_ = std::make_unique<Vector>();
        return *fields_;
    }
    std::unique_ptr<Vector> fields_;
};

}  // namespace lockscope::inspect

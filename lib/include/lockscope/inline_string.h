#pragma once
// A string kept inside its owner when it is short, as a lock record keeps its key and token.
// A std::string keeps 15 characters in place and puts anything longer on the heap:
// "lock:{job123456}" and a 32-hex token took 32 + 48 heap bytes beside their 64-byte
// objects, and those small blocks, cut amid a read's passing allocations, left holes among
// them for as long as the lock lived (issue 37 item 7: 1M locks, 145 of 370 bytes a lock,
// and 95 bytes of holes). This keeps up to Bytes - 5 characters in its own Bytes (a
// 32-byte key: 27, a 40-byte token: 35) and only longer text on the heap.
//
// It reads like a const std::string (size, find, substr, comparisons, streams) and converts
// to std::string_view and std::string; it is assigned from either.

#include <compare>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace lockscope {

template <std::size_t Bytes>
class InlineString {
    static_assert(Bytes >= 16 && Bytes % 8 == 0);
    static constexpr std::size_t kBuffer = Bytes - sizeof(std::uint32_t);

  public:
    // The longest text kept in place (one byte holds its terminating NUL).
    static constexpr std::size_t kInlineCapacity = kBuffer - 1;
    static constexpr std::size_t npos = std::string_view::npos;

    InlineString() noexcept { inline_[0] = '\0'; }
    InlineString(std::string_view text) { init(text); }               // NOLINT: as std::string
    InlineString(const std::string& text) { init(text); }             // NOLINT: as std::string
    InlineString(const char* text) { init(std::string_view(text)); }  // NOLINT: as std::string
    InlineString(const InlineString& other) { init(other.view()); }
    template <std::size_t OtherBytes>
    explicit InlineString(const InlineString<OtherBytes>& other) {
        init(other.view());
    }
    InlineString(InlineString&& other) noexcept { take(other); }
    ~InlineString() { release(); }

    InlineString& operator=(const InlineString& other) {
        if (this != &other) replace(other.view());
        return *this;
    }
    InlineString& operator=(InlineString&& other) noexcept {
        if (this != &other) {
            release();
            take(other);
        }
        return *this;
    }
    InlineString& operator=(std::string_view text) {
        replace(text);
        return *this;
    }
    InlineString& operator=(const std::string& text) { return *this = std::string_view(text); }
    InlineString& operator=(const char* text) { return *this = std::string_view(text); }
    template <std::size_t OtherBytes>
    InlineString& operator=(const InlineString<OtherBytes>& other) {
        return *this = other.view();
    }
    InlineString& operator+=(std::string_view more) { return *this = str().append(more); }
    InlineString& append(std::string_view more) { return *this += more; }

    const char* data() const { return onHeap() ? heap() : inline_; }
    const char* c_str() const { return data(); }
    std::size_t size() const { return size_; }
    std::size_t length() const { return size_; }
    bool empty() const { return size_ == 0; }
    const char* begin() const { return data(); }
    const char* end() const { return data() + size_; }
    char operator[](std::size_t i) const { return data()[i]; }
    char front() const { return data()[0]; }
    char back() const { return data()[size_ - 1]; }

    std::string_view view() const { return {data(), size_}; }
    operator std::string_view() const { return view(); }          // NOLINT: reads as a string
    operator std::string() const { return std::string(view()); }  // NOLINT: as above
    std::string str() const { return std::string(view()); }

    std::string substr(std::size_t pos = 0, std::size_t count = npos) const {
        return std::string(view().substr(pos, count));
    }
    std::size_t find(std::string_view s, std::size_t pos = 0) const { return view().find(s, pos); }
    std::size_t find(char c, std::size_t pos = 0) const { return view().find(c, pos); }
    std::size_t rfind(std::string_view s, std::size_t pos = npos) const {
        return view().rfind(s, pos);
    }
    std::size_t rfind(char c, std::size_t pos = npos) const { return view().rfind(c, pos); }
    std::size_t find_first_of(std::string_view s, std::size_t pos = 0) const {
        return view().find_first_of(s, pos);
    }
    std::size_t find_first_not_of(std::string_view s, std::size_t pos = 0) const {
        return view().find_first_not_of(s, pos);
    }
    bool starts_with(std::string_view s) const { return view().starts_with(s); }
    bool starts_with(char c) const { return view().starts_with(c); }
    bool ends_with(std::string_view s) const { return view().ends_with(s); }
    bool ends_with(char c) const { return view().ends_with(c); }
    bool contains(std::string_view s) const { return view().find(s) != npos; }
    bool contains(char c) const { return view().find(c) != npos; }
    int compare(std::string_view s) const { return view().compare(s); }

    void assign(std::string_view text) { replace(text); }
    void clear() { replace({}); }
    void swap(InlineString& other) noexcept {
        InlineString kept(std::move(other));
        other = std::move(*this);
        *this = std::move(kept);
    }

    friend bool operator==(const InlineString& a, const InlineString& b) {
        return a.view() == b.view();
    }
    friend bool operator==(const InlineString& a, std::string_view b) { return a.view() == b; }
    friend bool operator==(const InlineString& a, const std::string& b) { return a.view() == b; }
    friend bool operator==(const InlineString& a, const char* b) { return a.view() == b; }
    friend std::strong_ordering operator<=>(const InlineString& a, const InlineString& b) {
        return a.view() <=> b.view();
    }
    friend std::strong_ordering operator<=>(const InlineString& a, std::string_view b) {
        return a.view() <=> b;
    }
    friend std::strong_ordering operator<=>(const InlineString& a, const std::string& b) {
        return a.view() <=> std::string_view(b);
    }
    friend std::strong_ordering operator<=>(const InlineString& a, const char* b) {
        return a.view() <=> std::string_view(b);
    }
    friend std::string operator+(const InlineString& a, std::string_view b) {
        std::string out(a.view());
        out += b;
        return out;
    }
    friend std::string operator+(std::string a, const InlineString& b) {
        a += b.view();
        return a;
    }
    friend std::string operator+(const char* a, const InlineString& b) {
        std::string out(a);
        out += b.view();
        return out;
    }
    friend std::string operator+(const InlineString& a, const std::string& b) {
        return a + std::string_view(b);
    }
    friend std::string operator+(const InlineString& a, const char* b) {
        return a + std::string_view(b);
    }
    friend std::string operator+(const InlineString& a, char b) {
        return a + std::string_view(&b, 1);
    }
    friend std::string operator+(char a, const InlineString& b) { return std::string(1, a) + b; }
    friend std::string& operator+=(std::string& a, const InlineString& b) { return a += b.view(); }
    friend std::ostream& operator<<(std::ostream& out, const InlineString& s) {
        return out << s.view();
    }

  private:
    bool onHeap() const { return size_ > kInlineCapacity; }
    void init(std::string_view text) {
        size_ = static_cast<std::uint32_t>(text.size());
        char* to = inline_;
        if (onHeap()) setHeap(to = new char[text.size() + 1]);
        if (!text.empty()) std::memcpy(to, text.data(), text.size());
        to[text.size()] = '\0';
    }
    void replace(std::string_view text) {
        if (text.size() > kInlineCapacity) {  // may be our own text: copy before freeing
            InlineString copy(text);
            release();
            take(copy);
            return;
        }
        char kept[kBuffer];
        if (!text.empty()) std::memcpy(kept, text.data(), text.size());
        release();
        size_ = static_cast<std::uint32_t>(text.size());
        if (!text.empty()) std::memcpy(inline_, kept, text.size());
        inline_[text.size()] = '\0';
    }
    void release() {
        if (onHeap()) delete[] heap();
        size_ = 0;
        inline_[0] = '\0';
    }
    // Takes other's text (other is left empty; its heap block, if any, is now ours).
    void take(InlineString& other) noexcept {
        size_ = other.size_;
        if (other.onHeap())
            setHeap(other.heap());
        else
            std::memcpy(inline_, other.inline_, size_ + 1);
        other.size_ = 0;
        other.inline_[0] = '\0';
    }

    // Longer text lives on the heap, its address in the first bytes of the buffer.
    char* heap() const {
        char* block = nullptr;
        std::memcpy(&block, inline_, sizeof block);
        return block;
    }
    void setHeap(char* block) { std::memcpy(inline_, &block, sizeof block); }

    // No union with the pointer: it would round the buffer up to 8 bytes and the whole to
    // Bytes + 8.
    alignas(sizeof(char*)) char inline_[kBuffer];
    std::uint32_t size_ = 0;
};

}  // namespace lockscope

template <std::size_t Bytes>
struct std::hash<lockscope::InlineString<Bytes>> {
    std::size_t operator()(const lockscope::InlineString<Bytes>& s) const noexcept {
        return std::hash<std::string_view>{}(s.view());
    }
};

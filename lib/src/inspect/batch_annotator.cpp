#include "batch_annotator.h"

#include "annotator_replies.h"

#include <algorithm>

#include "lockscope/errors.h"

namespace lockscope::inspect {
namespace {

void sendArgv(Connection& c, std::initializer_list<std::string_view> argv) {
    c.send(Connection::Argv(argv.begin(), argv.size()));
}

}  // namespace

void throwReplyError(std::string_view command, const std::string& instance, std::string_view text) {
    // The core's one mapping: the reply's code (NOPERM, MOVED, ...) travels with the error.
    throwServerError(std::string(command) + " on " + instance, text);
}

BatchAnnotator::BatchAnnotator(const ScanOptions& options,
                               const std::shared_ptr<const std::string>& instance)
    : options_(options), instance_(instance), slotGroups_(options.clusterNode) {}

void BatchAnnotator::note(const std::string& text) {
    for (const auto& n : notes_)
        if (n == text) return;
    notes_.push_back(text);
}

std::vector<std::pair<std::size_t, std::size_t>> BatchAnnotator::arrangeFenceKeys(
    const std::vector<std::string>& keys, std::vector<int>& fenceIndex) {
    fenceIndex.assign(keys.size(), -1);
    // Fence keys go end to end into one buffer (sized first, so the views stay valid):
    // no allocation per key.
    std::vector<std::pair<std::size_t, std::size_t>> fenceSpans;  // offset, length
    fenceSpans.reserve(keys.size());
    const auto& layout = options_.layout;
    std::size_t bytes = 0;
    for (const auto& k : keys)
        if (!layout.lockPrefix.empty() && k.starts_with(layout.lockPrefix))
            bytes += layout.fencePrefix.size() + k.size() - layout.lockPrefix.size();
    fenceArena_.clear();
    fenceArena_.reserve(bytes);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto& k = keys[i];
        if (layout.lockPrefix.empty() || !k.starts_with(layout.lockPrefix)) continue;
        fenceIndex[i] = static_cast<int>(fenceSpans.size());
        std::size_t from = fenceArena_.size();
        fenceArena_ += layout.fencePrefix;
        fenceArena_.append(k, layout.lockPrefix.size());
        fenceSpans.emplace_back(from, fenceArena_.size() - from);
    }
    return fenceSpans;
}

std::string_view BatchAnnotator::fenceKey(
    const std::vector<std::pair<std::size_t, std::size_t>>& spans, int index) const {
    auto [from, length] = spans[static_cast<std::size_t>(index)];
    return std::string_view(fenceArena_).substr(from, length);
}

BatchAnnotator::Sent BatchAnnotator::sendMain(Connection& c, std::vector<std::string> keys) {
    if (mget_ && slotGroups_) return sendSlotGroups(c, std::move(keys));
    Sent s;
    s.sentAt = SteadyClock::now();
    s.perKeyGet = !mget_;
    const auto fenceSpans = arrangeFenceKeys(keys, s.fenceIndex);
    auto fenceOf = [&](int index) { return fenceKey(fenceSpans, index); };
    s.fences = static_cast<int>(fenceSpans.size());
    if (s.perKeyGet) {
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (s.fenceIndex[i] >= 0 && fenceElsewhere(keys[i], fenceOf(s.fenceIndex[i])))
                s.fenceIndex[i] = -1;  // read from its slot's owner after the replies
            sendArgv(c, {"PTTL", keys[i]});
            sendArgv(c, {"GET", keys[i]});
            if (s.fenceIndex[i] >= 0) sendArgv(c, {"GET", fenceOf(s.fenceIndex[i])});
        }
    } else if (!keys.empty()) {
        for (const auto& k : keys) sendArgv(c, {"PTTL", k});
        argv_.clear();
        argv_.emplace_back("MGET");
        argv_.insert(argv_.end(), keys.begin(), keys.end());
        c.send(argv_);
        if (s.fences > 0) {
            argv_.resize(1);
            for (int f = 0; f < s.fences; ++f) argv_.push_back(fenceOf(f));
            c.send(argv_);
        }
    }
    s.keys = std::move(keys);
    return s;
}

// Says how hashes are read now that HSCAN or HLEN was denied (replacing what an earlier
// note said about the other).
void BatchAnnotator::noteHashReads() {
    std::erase_if(notes_, [](const std::string& n) {
        return n.starts_with("HSCAN") || n.starts_with("HLEN");
    });
    const std::string cap = std::to_string(options_.maxHashFields);
    if (hscan_)
        note("HLEN denied: a hash's length is known only up to the " + cap + " fields read");
    else if (hlen_)
        note("HSCAN denied: reading hashes with HGETALL when HLEN shows at most " + cap +
             " fields; longer hashes are listed without their fields");
    else
        note(
            "HSCAN and HLEN denied: reading hashes with HGETALL, uncapped (a huge hash under "
            "the pattern makes a slow command; allow HSCAN or HLEN to cap it)");
}

// How a follow-up reads a key's hash fields (if it is a hash): capped HSCAN when allowed;
// else HGETALL only once HLEN has shown the hash within the cap, or blind when HLEN is
// denied too.
BatchAnnotator::HashRead BatchAnnotator::hashReadFor(const std::string& key) {
    if (hscan_) return HashRead::Scan;
    if (!hlen_) return HashRead::GetAll;
    return smallHashes_.erase(key) ? HashRead::GetAll : HashRead::None;
}

BatchAnnotator::Sent BatchAnnotator::sendFollowUp(Connection& c, std::vector<std::string> keys,
                                                  std::vector<ValueType> expected) {
    Sent s;
    s.sentAt = SteadyClock::now();
    s.followUp = true;
    s.hlen = hlen_;
    s.typeSent = typeAllowed_;
    s.fenceIndex.assign(keys.size(), -1);
    s.hashRead.reserve(keys.size());
    // Without TYPE a changed type could not be noticed: read every way then.
    if (!typeAllowed_ || expected.size() != keys.size())
        expected.assign(keys.size(), ValueType::String);
    std::string cap = std::to_string(options_.maxHashFields);
    s.zsetRead.assign(keys.size(), false);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto& k = keys[i];
        if (typeAllowed_ && knownZsets_.erase(k) > 0) expected[i] = ValueType::ZSet;
        const ValueType type = expected[i];
        if (typeAllowed_) sendArgv(c, {"TYPE", k});
        sendArgv(c, {"PTTL", k});
        if (type == ValueType::ZSet) s.zsetRead[i] = sendMemberReads(c, k);
        // A key comes here because MGET found no string: with TYPE to say which type it is,
        // GET would only answer WRONGTYPE (a string after all goes back to the main stage).
        if (type == ValueType::String && !typeAllowed_) sendArgv(c, {"GET", k});
        if (type != ValueType::String && type != ValueType::Hash) {  // no value to read
            s.hashRead.push_back(HashRead::None);
            continue;
        }
        if (s.hlen) sendArgv(c, {"HLEN", k});
        HashRead read = hashReadFor(k);
        s.hashRead.push_back(read);
        if (read == HashRead::Scan)
            sendArgv(c, {"HSCAN", k, "0", "COUNT", cap});
        else if (read == HashRead::GetAll)
            sendArgv(c, {"HGETALL", k});
        if (auto f = fenceKeyFor(k, options_.layout); f && !fenceElsewhere(k, *f)) {
            s.fenceIndex[i] = s.fences++;
            sendArgv(c, {"GET", *f});
        }
    }
    s.keys = std::move(keys);
    s.expected = std::move(expected);
    return s;
}

void BatchAnnotator::receive(Connection& c, Sent& sent, Output& out) {
    const std::size_t before = out.records.size();
    if (sent.followUp)
        receiveFollowUp(c, sent, out);
    else if (sent.slotGroups)
        receiveSlotGroups(c, sent, out);
    else
        receiveMain(c, sent, out);
    readFencesElsewhere(out.records, before);
}

LockRecord BatchAnnotator::makeRecord(std::string&& key, SteadyClock::time_point at,
                                      std::int64_t pttl) const {
    LockRecord r;
    r.instance = instance_;
    r.key = key;  // kept inside the record: nothing to move
    auto [offset, length] = resourceSpan(r.key, options_.layout);
    if (offset <= 0xffff && length <= 0xffff) {
        r.resourceOffset = static_cast<std::uint16_t>(offset);
        r.resourceLength = static_cast<std::uint16_t>(length);
    } else {
        r.resourceLength = static_cast<std::uint16_t>(std::min<std::size_t>(r.key.size(), 0xffff));
    }
    r.pttlMs = pttl;
    r.observedAt = r.firstSeen = r.lastChange = at;
    // Built as its reply is read: the read took from `at` until now.
    r.readSpanMs = readSpanMs(at, SteadyClock::now());
    return r;
}

void BatchAnnotator::setToken(LockRecord& r, std::string_view value) const {
    r.type = ValueType::String;
    r.valueBytes = static_cast<std::uint32_t>(std::min<std::size_t>(value.size(), UINT32_MAX));
    r.truncated = value.size() > options_.maxValueBytes;
    r.token.assign(value.substr(0, options_.maxValueBytes));
    r.kind = classifyString(r.key, value, r.fence.has_value(), options_.layout);
}

void BatchAnnotator::receiveMain(Connection& c, Sent& s, Output& out) {
    const std::size_t n = s.keys.size();
    if (n == 0) return;
    std::vector<std::int64_t> pttl(n);
    const std::string& where = *instance_;
    auto checkPttl = [&](const Reply& r) {
        if (r.isError()) throwReplyError("PTTL", where, r.text());
    };
    if (s.perKeyGet) {
        for (std::size_t i = 0; i < n; ++i) {
            Reply p = c.receive();
            Reply v = c.receive();
            Reply f;
            if (s.fenceIndex[i] >= 0) f = c.receive();
            if (movedAway(p) || movedAway(v)) {
                out.redirected.emplace_back(std::move(s.keys[i]),
                                            movedAway(p) ? p.text() : v.text());
                continue;
            }
            checkPttl(p);
            if (isNoPerm(v)) throwReplyError("GET", where, v.text());
            if (isNoPerm(f)) throwReplyError("GET", where, f.text());
            std::int64_t t = p.integer();
            if (t == -2) {
                out.vanished.push_back(std::move(s.keys[i]));
                continue;
            }
            if (v.isError() || v.isNil()) {  // WRONGTYPE, or gone and back: find out in a follow-up
                out.followUps.push_back(std::move(s.keys[i]));
                continue;
            }
            LockRecord r = makeRecord(std::move(s.keys[i]), s.sentAt, t);
            if (s.fenceIndex[i] >= 0) r.fence = parseFence(f.view());
            setToken(r, v.text());
            out.records.push_back(std::move(r));
        }
        return;
    }
    std::vector<bool> moved(n, false);
    std::vector<std::string> movedBy;  // the redirections, in the order of the moved keys
    for (std::size_t i = 0; i < n; ++i) {
        Reply p = c.receive();
        if (movedAway(p)) {
            moved[i] = true;
            movedBy.emplace_back(p.text());
            continue;
        }
        checkPttl(p);
        pttl[i] = p.integer();
    }
    Reply values = c.receive();
    Reply fences;
    if (s.fences > 0) fences = c.receive();
    if (isCrossSlot(values) || isCrossSlot(fences) || movedAway(values) || movedAway(fences)) {
        slotGroups_ = true;  // a cluster node: MGET of one batch spans slots
        out.retryMain.insert(out.retryMain.end(), s.keys.begin(), s.keys.end());
        return;
    }
    if (isNoPerm(values) || isNoPerm(fences)) {
        mget_ = false;
        note("MGET denied: reading values with one GET per key (slower)");
        out.retryMain.insert(out.retryMain.end(), s.keys.begin(), s.keys.end());
        return;
    }
    if (values.isError()) throwReplyError("MGET", where, values.text());
    if (fences.isError()) throwReplyError("MGET", where, fences.text());
    std::size_t movedSeen = 0;
    for (std::size_t i = 0; i < n; ++i) {
        ReplyView v = values[i];
        if (moved[i]) {
            out.redirected.emplace_back(std::move(s.keys[i]), std::move(movedBy[movedSeen++]));
            continue;
        }
        if (pttl[i] == -2) {
            out.vanished.push_back(std::move(s.keys[i]));
            continue;
        }
        if (!v.isString()) {
            out.followUps.push_back(std::move(s.keys[i]));
            continue;
        }
        LockRecord r = makeRecord(std::move(s.keys[i]), s.sentAt, pttl[i]);
        if (s.fenceIndex[i] >= 0)
            r.fence = parseFence(fences[static_cast<std::size_t>(s.fenceIndex[i])]);
        setToken(r, v.text());
        out.records.push_back(std::move(r));
    }
}

void BatchAnnotator::setFields(LockRecord& r, const Reply& h, HashRead read,
                               std::int64_t length) const {
    r.type = ValueType::Hash;
    if (read == HashRead::None) {  // too long to read with HGETALL: listed without fields
        r.truncated = length > 0;
        r.valueBytes = static_cast<std::uint32_t>(std::clamp<std::int64_t>(length, 0, UINT32_MAX));
        r.kind = classifyHash(r.key, r.fields);
        return;
    }
    ReplyView flat = read == HashRead::GetAll ? h.view() : h[1];
    bool more = read == HashRead::Scan && h[0].text() != "0";
    std::size_t pairs = flat.size() / 2;
    std::size_t keep = std::min(pairs, options_.maxHashFields);
    r.fields.reserve(keep);
    bool cut = false;
    for (std::size_t j = 0; j < keep; ++j) {
        auto field = flat[2 * j].text(), value = flat[2 * j + 1].text();
        cut = cut || field.size() > options_.maxValueBytes || value.size() > options_.maxValueBytes;
        r.fields.push_back({std::string(field.substr(0, options_.maxValueBytes)),
                            std::string(value.substr(0, options_.maxValueBytes))});
    }
    // HLEN, when allowed, is the true length; HSCAN alone only says more are left.
    std::size_t total = length >= 0 ? static_cast<std::size_t>(length) : pairs;
    r.truncated = cut || more || keep < pairs || keep < total;
    r.valueBytes = static_cast<std::uint32_t>(std::min<std::size_t>(total, UINT32_MAX));
    r.kind = classifyHash(r.key, r.fields);
}

}  // namespace lockscope::inspect

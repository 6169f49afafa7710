// The follow-up stage of BatchAnnotator: keys the main stage could not settle (not strings,
// or changed while being read) are read with TYPE, PTTL, GET, HLEN, HSCAN/HGETALL and their
// fence, one key at a time; a sorted set with ZCARD and a capped ZRANGE WITHSCORES. Each
// key's replies are read whole first, then the reads the ACL refused are learnt, then the
// record is built from what came back.
#include <algorithm>
#include <chrono>

#include "annotator_replies.h"
#include "batch_annotator.h"
#include "formats/sorted_set_shapes.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/value_classifier.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect {

// The replies of one key, in the order they were sent; a reply that was not sent is nil.
struct BatchAnnotator::FollowUpReplies {
    Reply type, pttl, value, hashLength, hash, fence, zsetLength, members;
    bool sentGet = false;
};

BatchAnnotator::FollowUpReplies BatchAnnotator::readFollowUp(Connection& c, const Sent& s,
                                                             std::size_t i) {
    FollowUpReplies r;
    const ValueType expected = s.expected[i];
    const bool valueRead = expected == ValueType::String || expected == ValueType::Hash;
    r.sentGet = expected == ValueType::String && !s.typeSent;
    if (s.typeSent) r.type = c.receive();
    r.pttl = c.receive();
    if (r.sentGet) r.value = c.receive();
    if (s.hlen && valueRead) r.hashLength = c.receive();
    if (s.hashRead[i] != HashRead::None) r.hash = c.receive();
    if (s.fenceIndex[i] >= 0) r.fence = c.receive();
    if (s.zsetRead[i]) {
        r.zsetLength = c.receive();
        r.members = c.receive();
    }
    return r;
}

bool BatchAnnotator::sendMemberReads(Connection& c, const std::string& key) {
    if (!zsets_) return false;
    const std::string last = std::to_string(options_.maxHashFields - 1);
    c.send({std::string_view("ZCARD"), std::string_view(key)});
    c.send({std::string_view("ZRANGE"), std::string_view(key), std::string_view("0"),
            std::string_view(last), std::string_view("WITHSCORES")});
    return true;
}

void BatchAnnotator::setMembers(LockRecord& r, const Reply& length, const Reply& members) const {
    r.type = ValueType::ZSet;
    // RESP2 answers member, score, member, score...; RESP3 answers [member, score] pairs.
    const ReplyView list = members.view();
    const bool pairs = list.size() > 0 && list[0].isArray();
    const std::size_t count = pairs ? list.size() : list.size() / 2;
    const std::size_t keep = std::min(count, options_.maxHashFields);
    bool cut = false;
    for (std::size_t j = 0; j < keep; ++j) {
        auto member = pairs ? list[j][0].text() : list[2 * j].text();
        auto score = pairs ? list[j][1].text() : list[2 * j + 1].text();
        cut = cut || member.size() > options_.maxValueBytes;
        r.fields.push_back({std::string(member.substr(0, options_.maxValueBytes)),
                            std::string(score.substr(0, 32))});
    }
    const auto total = length.view().isInteger()
                           ? static_cast<std::size_t>(std::max<std::int64_t>(0, length.integer()))
                           : count;
    r.truncated = cut || keep < total;
    r.valueBytes = static_cast<std::uint32_t>(std::min<std::size_t>(total, UINT32_MAX));
    r.kind = classifyOther(r.key, ValueType::ZSet);
    if (r.kind == LockKind::NotALock)
        r.kind = formats::zsetKindByMembers(r.fields, std::chrono::system_clock::now())
                     .value_or(LockKind::NotALock);
    // Another application's sorted set: its members are no holders, and not worth keeping.
    if (r.kind == LockKind::NotALock) r.fields.clear();
}

bool BatchAnnotator::learnRefusedReads(FollowUpReplies& r, HashRead read) {
    const std::string& where = *instance_;
    if (r.pttl.isError()) throwReplyError("PTTL", where, r.pttl.text());
    if (isNoPerm(r.type)) {
        typeAllowed_ = false;
        note("TYPE denied: the type is guessed from which reads succeed");
        if (!r.sentGet) return true;  // read it again with every read, now that TYPE is off
    } else if (r.type.isError()) {
        throwReplyError("TYPE", where, r.type.text());
    }
    if (isNoPerm(r.zsetLength) || isNoPerm(r.members)) {
        zsets_ = false;
        note(
            "ZCARD or ZRANGE denied: sorted-set locks (Symfony Lock, redis-semaphore) are "
            "listed without their holders");
        r.zsetLength = Reply();
        r.members = Reply();
    }
    const bool hlenDenied = isNoPerm(r.hashLength), hashDenied = isNoPerm(r.hash);
    if (hlenDenied) {
        hlen_ = false;
        r.hashLength = Reply();
    }
    if (hashDenied) {
        if (read == HashRead::GetAll) throwReplyError("HGETALL", where, r.hash.text());
        hscan_ = false;
    }
    if (hlenDenied || hashDenied) noteHashReads();
    if (hashDenied || (hlenDenied && read == HashRead::None)) return true;
    if (isNoPerm(r.value)) throwReplyError("GET", where, r.value.text());
    return false;
}

void BatchAnnotator::readAgain(const std::string& key, std::string_view why) {
    if (++rereads_[key] <= kMaxRereads) return;
    // The replies of this stage were all read, but later ones may be in flight: the
    // connection drops them before its next command.
    throw MalformedReplyError("reading " + printable(key, 64) + " on " + *instance_ + ": " +
                              std::string(why) + ", " + std::to_string(kMaxRereads + 1) +
                              " times in a row: the key is unreadable (it keeps changing, or "
                              "the server's answers contradict each other); stopped here");
}

namespace {

// The type the replies show: TYPE's answer when it was allowed, else the read that worked.
ValueType typeShown(const Reply& type, const Reply& value, const Reply& hashLength,
                    const Reply& hash, bool hashRead) {
    if (type.view().isStatus()) return valueTypeFromName(type.text());
    if (value.view().isString()) return ValueType::String;
    const bool isHash = (hashLength.view().isInteger() && hashLength.integer() > 0) ||
                        (hashRead && !hash.isError());
    return isHash ? ValueType::Hash : ValueType::Other;
}

}  // namespace

void BatchAnnotator::settleFollowUp(std::string&& key, const FollowUpReplies& r, const Sent& s,
                                    std::size_t i, Output& out) {
    const HashRead read = s.hashRead[i];
    const std::int64_t pttl = r.pttl.integer();
    if (pttl == -2 || (r.type.view().isStatus() && r.type.text() == "none")) {
        out.vanished.push_back(std::move(key));
        return;
    }
    if (s.expected[i] != ValueType::String && r.type.view().isStatus() &&
        valueTypeFromName(r.type.text()) != s.expected[i]) {
        readAgain(key, "its type changed between reads");
        out.retryFollow.push_back(std::move(key));  // it changed type: read it every way
        return;
    }
    LockRecord record = makeRecord(std::move(key), s.sentAt, pttl);
    if (s.fenceIndex[i] >= 0) record.fence = parseFence(r.fence.view());
    const std::int64_t length = r.hashLength.view().isInteger() ? r.hashLength.integer() : -1;
    const ValueType shown =
        typeShown(r.type, r.value, r.hashLength, r.hash, read != HashRead::None);
    switch (shown) {
        case ValueType::String:
            if (!r.sentGet) {  // a string after all (it changed since MGET): read it there
                readAgain(record.key, "MGET found no string where TYPE says string");
                out.retryMain.push_back(std::move(record.key));
                return;
            }
            if (!r.value.view().isString()) {  // changed between TYPE and GET: next round
                readAgain(record.key, "GET found no string where the reads say string");
                out.retryFollow.push_back(std::move(record.key));
                return;
            }
            setToken(record, r.value.text());
            break;
        case ValueType::Hash:
            if (read == HashRead::None && length >= 0 &&
                length <= static_cast<std::int64_t>(options_.maxHashFields)) {
                smallHashes_.insert(record.key);  // short enough for HGETALL: next round
                out.retryFollow.push_back(std::move(record.key));
                return;
            }
            // An error here means the key changed type since TYPE: listed without fields.
            setFields(record, r.hash, r.hash.isError() ? HashRead::None : read, length);
            break;
        case ValueType::ZSet:
            if (!s.zsetRead[i] && zsets_) {  // found by TYPE: its members in the next round
                knownZsets_.insert(record.key);
                out.retryFollow.push_back(std::move(record.key));
                return;
            }
            setMembers(record, r.zsetLength, r.members);
            break;
        default:
            record.type = shown;
            record.kind = classifyOther(record.key, shown);
    }
    out.records.push_back(std::move(record));
}

void BatchAnnotator::receiveFollowUp(Connection& c, Sent& s, Output& out) {
    for (std::size_t i = 0; i < s.keys.size(); ++i) {
        FollowUpReplies replies = readFollowUp(c, s, i);
        if (movedAway(replies.pttl))  // a cluster slot moved: read again from its new owner
            out.redirected.emplace_back(std::move(s.keys[i]), replies.pttl.text());
        else if (learnRefusedReads(replies, s.hashRead[i]))
            out.retryFollow.push_back(std::move(s.keys[i]));
        else
            settleFollowUp(std::move(s.keys[i]), replies, s, i, out);
    }
}

}  // namespace lockscope::inspect

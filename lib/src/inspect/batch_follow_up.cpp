// The follow-up stage of BatchAnnotator: keys the main stage could not settle (not strings,
// or changed while being read) are read with TYPE, PTTL, GET, HLEN, HSCAN/HGETALL and their
// fence, one key at a time. Each key's replies are read whole first, then the reads the ACL
// refused are learnt, then the record is built from what came back.
#include "annotator_replies.h"
#include "batch_annotator.h"
#include "lockscope/errors.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect {

// The replies of one key, in the order they were sent; a reply that was not sent is nil.
struct BatchAnnotator::FollowUpReplies {
    Reply type, pttl, value, hashLength, hash, fence;
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
    return r;
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

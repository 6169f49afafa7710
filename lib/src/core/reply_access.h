#pragma once
// Inside the library only: wraps a reply the hiredis parser made into a Reply and reads it
// back. detail::ReplyNode is never defined; it names a redisReply without putting hiredis in
// the public headers (the pointer is converted back before any use).

#include <hiredis/hiredis.h>

#include "lockscope/reply.h"

namespace lockscope::detail {

struct ReplyAccess {
    // Takes ownership: freeReplyObject runs when the Reply goes.
    static Reply adopt(redisReply* owned) { return Reply(node(owned)); }
    static ReplyView view(const redisReply* reply) { return ReplyView(node(reply)); }

    static const redisReply* reply(const ReplyView& view) { return parsed(view.node_); }
    static const redisReply* reply(const Reply& r) { return parsed(r.node_.get()); }
    static redisReply* parsed(ReplyNode* node) { return reinterpret_cast<redisReply*>(node); }
    static const redisReply* parsed(const ReplyNode* node) {
        return reinterpret_cast<const redisReply*>(node);
    }

  private:
    static ReplyNode* node(redisReply* r) { return reinterpret_cast<ReplyNode*>(r); }
    static const ReplyNode* node(const redisReply* r) {
        return reinterpret_cast<const ReplyNode*>(r);
    }
};

}  // namespace lockscope::detail

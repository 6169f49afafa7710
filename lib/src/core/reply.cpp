#include "lockscope/reply.h"

#include <hiredis/hiredis.h>

#include "lockscope/text_format.h"
#include "reply_access.h"

namespace lockscope {

using detail::ReplyAccess;

void Reply::Free::operator()(detail::ReplyNode* node) const noexcept {
    freeReplyObject(ReplyAccess::parsed(node));
}

ReplyView Reply::view() const {
    return ReplyAccess::view(ReplyAccess::reply(*this));
}

ReplyType ReplyView::type() const {
    const redisReply* reply_ = ReplyAccess::reply(*this);
    if (!reply_) return ReplyType::Nil;
    switch (reply_->type) {
        case REDIS_REPLY_STRING:
            return ReplyType::String;
        case REDIS_REPLY_ARRAY:
            return ReplyType::Array;
        case REDIS_REPLY_INTEGER:
            return ReplyType::Integer;
        case REDIS_REPLY_STATUS:
            return ReplyType::Status;
        case REDIS_REPLY_ERROR:
            return ReplyType::Error;
        default:
            return ReplyType::Nil;
    }
}

std::int64_t ReplyView::integer() const {
    const redisReply* reply_ = ReplyAccess::reply(*this);
    return reply_ && reply_->type == REDIS_REPLY_INTEGER ? reply_->integer : 0;
}

std::string_view ReplyView::text() const {
    const redisReply* reply_ = ReplyAccess::reply(*this);
    if (!reply_) return {};
    switch (reply_->type) {
        case REDIS_REPLY_STRING:
        case REDIS_REPLY_STATUS:
        case REDIS_REPLY_ERROR:
            return {reply_->str, reply_->len};
        default:
            return {};
    }
}

std::size_t ReplyView::size() const {
    const redisReply* reply_ = ReplyAccess::reply(*this);
    return reply_ && reply_->type == REDIS_REPLY_ARRAY ? reply_->elements : 0;
}

ReplyView ReplyView::operator[](std::size_t i) const {
    return i < size() ? ReplyAccess::view(ReplyAccess::reply(*this)->element[i]) : ReplyView();
}

std::string ReplyView::summary(std::size_t maxText) const {
    switch (type()) {
        case ReplyType::Nil:
            return "(nil)";
        case ReplyType::Integer:
            return "(integer) " + std::to_string(integer());
        case ReplyType::Status:
            return std::string(text());
        case ReplyType::Error:
            return "(error) " + printable(text(), maxText);
        case ReplyType::String:
            return quoted(text(), maxText);
        case ReplyType::Array:
            return "(array of " + std::to_string(size()) + ")";
    }
    return {};
}

}  // namespace lockscope

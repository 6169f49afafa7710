// The checks a lock's name and options pass before anything is sent.
#include "lockscope/lock_options.h"

#include "lockscope/errors.h"

namespace lockscope {
namespace {

constexpr std::size_t maxKeyPart = 512;
constexpr std::size_t maxPurpose = 256;

std::string hexByte(unsigned char c) {
    const char* digits = "0123456789abcdef";
    return {digits[c >> 4], digits[c & 0xf]};
}

// The rule names and prefixes share: printable, no braces, not too long.
void checkKeyPart(std::string_view part, std::string_view what) {
    std::string label(what);
    if (part.size() > maxKeyPart)
        throw InvalidArgumentError(label + " is " + std::to_string(part.size()) +
                                   " bytes long; the limit is 512");
    for (unsigned char c : part) {
        if (c < 0x20 || c == 0x7f)
            throw InvalidArgumentError(label + " contains a control or binary byte (0x" +
                                       hexByte(c) + ")");
        if (c == '{' || c == '}')
            throw InvalidArgumentError(
                label +
                " contains a brace; braces would break the {hash tag} that keeps the lock "
                "and its fence counter in one Cluster slot");
    }
}

void checkHolderIdentity(const LockOptions& options) {
    const HolderIdentity& holder = options.holder;
    if (!holder.publish) return;
    validateKeyPrefix(holder.prefix, "holder prefix");
    if (holder.prefix == options.lockPrefix || holder.prefix == options.fencePrefix)
        throw InvalidArgumentError("holder prefix \"" + holder.prefix +
                                   "\" is also the lock or fence prefix: the holder hash would "
                                   "overwrite that key; give it a prefix of its own");
    if (holder.purpose.size() > maxPurpose)
        throw InvalidArgumentError("holder purpose is " + std::to_string(holder.purpose.size()) +
                                   " bytes long; the limit is 256");
    for (unsigned char c : holder.purpose)
        if (c < 0x20 || c == 0x7f)
            throw InvalidArgumentError("holder purpose contains a control or binary byte (0x" +
                                       hexByte(c) + ")");
}

}  // namespace

void validateLockName(std::string_view name) {
    if (name.empty()) throw InvalidArgumentError("lock name is empty");
    checkKeyPart(name, "lock name");
}

void validateKeyPrefix(std::string_view prefix, std::string_view what) {
    checkKeyPart(prefix, what);
}

void validateLockOptions(const LockOptions& options) {
    if (options.ttl.count() <= 0) throw InvalidArgumentError("lock TTL must be positive");
    validateKeyPrefix(options.lockPrefix, "lock prefix");
    validateKeyPrefix(options.fencePrefix, "fence prefix");
    if (options.lockPrefix == options.fencePrefix)
        throw InvalidArgumentError(
            "lock prefix and fence prefix are both \"" + options.lockPrefix +
            "\": the lock key would be its own fence counter; give them different prefixes");
    checkHolderIdentity(options);
}

}  // namespace lockscope

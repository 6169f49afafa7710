#include "holder_identity.h"

#include <pthread.h>
#include <unistd.h>

#include <array>
#include <chrono>

#include "lockscope/errors.h"

namespace lockscope::detail {
namespace {

constexpr std::size_t kMaxHostBytes = 200;

// CLIENT SETNAME refuses spaces and anything outside '!'..'~'.
std::string nameSafe(std::string text) {
    for (char& c : text)
        if (c < '!' || c > '~') c = '_';
    return text;
}

std::string epochMilliseconds() {
    auto now = std::chrono::system_clock::now().time_since_epoch();
    return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
}

}  // namespace

std::string holderHostName() {
    std::array<char, 256> host{};
    if (gethostname(host.data(), host.size() - 1) != 0) return "unknown-host";
    std::string name(host.data());
    if (name.size() > kMaxHostBytes) name.resize(kMaxHostBytes);
    return name.empty() ? "unknown-host" : nameSafe(std::move(name));
}

std::string ownConnectionName() {
    return "lockscope:" + holderHostName() + ":" + std::to_string(getpid());
}

std::string currentThreadName() {
    std::array<char, 64> name{};
    if (pthread_getname_np(pthread_self(), name.data(), name.size()) != 0) return {};
    return name.data();
}

std::string nameConnection(Connection& connection) {
    try {
        Reply current = connection.command({"CLIENT", "GETNAME"});
        if (current.view().isString() && !current.text().empty())
            return std::string(current.text());  // the user's name: not ours to overwrite
        std::string ours = ownConnectionName();
        connection.command({"CLIENT", "SETNAME", ours});
        return ours;
    } catch (const ReplyError&) {
        return {};  // CLIENT denied or renamed away: the holder hash says so (no connection)
    }
}

std::vector<std::string> holderFields(const std::string& token, const std::string& purpose,
                                      const std::string& connectionName) {
    std::vector<std::string> fields{"token",  token,
                                    "host",   holderHostName(),
                                    "pid",    std::to_string(getpid()),
                                    "thread", currentThreadName(),
                                    "since",  epochMilliseconds()};
    if (!purpose.empty()) fields.insert(fields.end(), {"purpose", purpose});
    if (!connectionName.empty()) fields.insert(fields.end(), {"connection", connectionName});
    return fields;
}

}  // namespace lockscope::detail

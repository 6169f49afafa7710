#include "client_list.h"

#include <charconv>

#include "lockscope/errors.h"

namespace lockscope::inspect::liveness {
namespace {

std::int64_t number(std::string_view s) {
    std::int64_t n = 0;
    std::from_chars(s.data(), s.data() + s.size(), n);
    return n;
}

// One "k=v k=v ..." line; CLIENT SETNAME refuses spaces, so a name never contains one.
ClientEntry parseLine(std::string_view line, bool& hasId) {
    ClientEntry e;
    hasId = false;
    while (!line.empty()) {
        auto space = line.find(' ');
        std::string_view pair = line.substr(0, space);
        line = space == std::string_view::npos ? std::string_view{} : line.substr(space + 1);
        auto eq = pair.find('=');
        if (eq == std::string_view::npos) continue;
        std::string_view k = pair.substr(0, eq), v = pair.substr(eq + 1);
        if (k == "id")
            e.id = std::string(v), hasId = true;
        else if (k == "addr")
            e.addr = std::string(v);
        else if (k == "name")
            e.name = std::string(v);
        else if (k == "age")
            e.ageSeconds = number(v);
        else if (k == "idle")
            e.idleSeconds = number(v);
    }
    return e;
}

}  // namespace

std::vector<ClientEntry> parseClientList(std::string_view text, std::size_t* total) {
    std::vector<ClientEntry> named;
    std::size_t lines = 0;
    while (!text.empty()) {
        auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (line.ends_with('\r')) line.remove_suffix(1);
        bool hasId = false;
        ClientEntry e = parseLine(line, hasId);
        if (!hasId) continue;
        ++lines;
        if (!e.name.empty()) named.push_back(std::move(e));
    }
    if (total) *total = lines;
    return named;
}

const ClientListSnapshot& ClientListReader::current() {
    if (!everRead_ || SteadyClock::now() - snapshot_.steadyAt >= every_) return refresh();
    return snapshot_;
}

const ClientListSnapshot& ClientListReader::refresh() {
    ClientListSnapshot s;
    s.at = WallClock::now();
    s.steadyAt = SteadyClock::now();
    ++reads_;
    try {
        Reply r = connection_.command({"CLIENT", "LIST"});
        s.named = parseClientList(r.text(), &s.total);
        s.read = true;
    } catch (const PermissionError& e) {
        s.whyNot = std::string("CLIENT LIST is denied to this user (") + e.what() + ")";
    } catch (const ReplyError& e) {
        s.whyNot = std::string("CLIENT LIST is not available here (") + e.what() + ")";
    } catch (const Error& e) {
        s.whyNot = std::string("CLIENT LIST could not be read (") + e.what() + ")";
    }
    if (s.read && s.total == 0) {
        s.read = false;
        s.whyNot = "CLIENT LIST answered no connection at all, not even this one";
    }
    snapshot_ = std::move(s);
    everRead_ = true;
    return snapshot_;
}

}  // namespace lockscope::inspect::liveness

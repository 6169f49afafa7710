#include "lockscope/sentinel.h"

#include <charconv>
#include <optional>

#include "lockscope/errors.h"

namespace lockscope {
namespace {

[[noreturn]] void bad(const std::string& why) {
    // Never echo the URL: it may hold a password.
    throw InvalidArgumentError("invalid Sentinel URL (redis-sentinel://...): " + why);
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percentDecode(std::string_view text, const char* what) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        int hi = i + 2 < text.size() ? hexValue(text[i + 1]) : -1;
        int lo = i + 2 < text.size() ? hexValue(text[i + 2]) : -1;
        if (hi < 0 || lo < 0) bad(std::string("bad %-escape in ") + what);
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

void applyQuery(SentinelTarget& t, std::string_view query) {
    while (!query.empty()) {
        auto amp = query.find('&');
        std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        auto eq = pair.find('=');
        std::string_view name = pair.substr(0, eq);
        std::string value =
            eq == std::string_view::npos ? "" : percentDecode(pair.substr(eq + 1), "a parameter");
        if (name == "sentinel-user" || name == "sentinelUser")
            t.sentinelUser = value;
        else if (name == "sentinel-password" || name == "sentinelPassword")
            t.sentinelPassword = value;
        else
            bad("unknown parameter \"" + std::string(name.substr(0, 40)) +
                "\" (known: sentinel-user, sentinel-password)");
    }
}

}  // namespace

Connection openSentinel(const SentinelTarget& t, const SentinelAddress& a,
                        const ConnectionOptions& options) {
    Endpoint e;
    e.host = a.host;
    e.port = a.port;
    e.user = t.sentinelUser;
    e.password = t.sentinelPassword;
    e.tls = t.data.tls;
    ConnectionOptions o = options;
    o.readOnly = false;  // SENTINEL is not a data command; the Sentinel holds no locks
    return Connection::open(e, o);
}

std::string SentinelTarget::display() const {
    std::string out = data.tls.enabled ? "rediss-sentinel://" : "redis-sentinel://";
    for (std::size_t i = 0; i < sentinels.size(); ++i) {
        if (i) out += ",";
        const auto& s = sentinels[i];
        out += (s.host.find(':') != std::string::npos ? "[" + s.host + "]" : s.host) + ":" +
               std::to_string(s.port);
    }
    if (data.db) out += "/" + std::to_string(data.db);
    return out + "#" + service;
}

bool isSentinelUrl(std::string_view url) {
    return url.starts_with("redis-sentinel://") || url.starts_with("rediss-sentinel://");
}

SentinelAddress parseSentinelAddress(std::string_view text) {
    SentinelAddress a;
    std::string_view portText;
    if (text.starts_with('[')) {
        auto close = text.find(']');
        if (close == std::string_view::npos) bad("an IPv6 Sentinel host is missing ']'");
        a.host = std::string(text.substr(1, close - 1));
        std::string_view after = text.substr(close + 1);
        if (!after.empty()) {
            if (after[0] != ':') bad("unexpected text after an IPv6 Sentinel host");
            portText = after.substr(1);
            if (portText.empty()) bad("a Sentinel port is empty");
        }
    } else {
        auto colon = text.rfind(':');
        a.host = std::string(text.substr(0, colon));
        if (colon != std::string_view::npos) {
            portText = text.substr(colon + 1);
            if (portText.empty()) bad("a Sentinel port is empty");
        }
    }
    if (a.host.empty()) bad("a Sentinel host is empty");
    if (a.host.size() > 255) bad("a Sentinel host is longer than 255 characters");
    for (unsigned char c : a.host)
        if (c <= 0x20 || c == 0x7f || c == '/' || c == '?' || c == '#' || c == '@' || c == ',')
            bad("a Sentinel host contains a bad character");
    if (!portText.empty()) {
        auto [end, ec] =
            std::from_chars(portText.data(), portText.data() + portText.size(), a.port);
        if (ec != std::errc() || end != portText.data() + portText.size() || a.port < 1 ||
            a.port > 65535)
            bad("a Sentinel port is not a number from 1 to 65535");
    }
    return a;
}

SentinelTarget parseSentinelUrl(std::string_view url) {
    if (url.size() > 4096) bad("it is longer than 4096 characters");
    for (unsigned char c : url)
        if (c < 0x20 || c == 0x7f) bad("it contains a control character");
    SentinelTarget t;
    if (url.starts_with("rediss-sentinel://")) {
        t.data.tls.enabled = true;
        url.remove_prefix(18);
    } else if (url.starts_with("redis-sentinel://")) {
        url.remove_prefix(17);
    } else {
        bad("it must start with redis-sentinel:// or rediss-sentinel://");
    }
    auto hash = url.rfind('#');
    if (hash == std::string_view::npos || hash + 1 == url.size())
        bad("the service name is missing (add #mymaster at the end)");
    t.service = percentDecode(url.substr(hash + 1), "the service name");
    url = url.substr(0, hash);
    if (auto q = url.find('?'); q != std::string_view::npos) {
        applyQuery(t, url.substr(q + 1));
        url = url.substr(0, q);
    }
    // The userinfo ends at the last '@' (no host holds one), as in redis:// URLs.
    if (auto at = url.rfind('@'); at != std::string_view::npos) {
        std::string_view userinfo = url.substr(0, at);
        url = url.substr(at + 1);
        auto colon = userinfo.find(':');
        t.data.user = percentDecode(userinfo.substr(0, colon), "the user");
        if (colon != std::string_view::npos)
            t.data.password = percentDecode(userinfo.substr(colon + 1), "the password");
    }
    std::string_view hosts = url.substr(0, url.find('/'));
    if (auto slash = url.find('/'); slash != std::string_view::npos && slash + 1 < url.size()) {
        std::string_view db = url.substr(slash + 1);
        auto [end, ec] = std::from_chars(db.data(), db.data() + db.size(), t.data.db);
        if (ec != std::errc() || end != db.data() + db.size() || t.data.db < 0 ||
            t.data.db > 1'000'000)
            bad("the database is not a number from 0 to 1000000");
    }
    while (true) {
        auto comma = hosts.find(',');
        t.sentinels.push_back(parseSentinelAddress(hosts.substr(0, comma)));
        if (comma == std::string_view::npos) break;
        hosts = hosts.substr(comma + 1);
    }
    return t;
}

Endpoint discoverPrimary(const SentinelTarget& t, const ConnectionOptions& options) {
    if (t.sentinels.empty()) throw InvalidArgumentError("no Sentinel given (--sentinel HOST:PORT)");
    if (t.service.empty()) throw InvalidArgumentError("no service name given (--service NAME)");
    std::vector<std::string> problems, silent, knowNoService;
    // Answers that asking again cannot change: the name unknown, the credentials refused.
    std::size_t answered = 0, refused = 0;
    for (const auto& s : t.sentinels) {
        const std::string where = s.host + ":" + std::to_string(s.port);
        bool thisAnswered = false;  // counted once, whether SENTINEL or the ROLE check failed
        try {
            Connection sentinel = openSentinel(t, s, options);
            Reply addr = sentinel.command({"SENTINEL", "get-master-addr-by-name", t.service});
            thisAnswered = true;
            ++answered;
            if (!addr.view().isArray() || addr.size() != 2) {
                problems.push_back(where + " knows no service \"" + t.service + "\"");
                knowNoService.push_back(where);
                continue;
            }
            Endpoint primary = t.data;
            primary.host = std::string(addr[0].text());
            int port = 0;
            auto portText = addr[1].text();
            std::from_chars(portText.data(), portText.data() + portText.size(), port);
            if (primary.host.empty() || port < 1 || port > 65535) {
                problems.push_back(where + " answered an address that is not host and port");
                continue;
            }
            primary.port = port;
            // Confirm: a Sentinel that has not yet seen a failover names a demoted primary.
            Connection c = Connection::open(primary, options);
            Reply role = c.command({"ROLE"});
            if (role.size() > 0 && role[0].text() == "master") return primary;
            problems.push_back(where + " named " + primary.display() + ", which is a " +
                               std::string(role.size() ? role[0].text() : "?") + " now");
        } catch (const AuthenticationError& e) {
            // A wrong or missing password: the Sentinels' (at SENTINEL) or the data nodes' (at
            // ROLE).
            problems.push_back(where + ": " + e.what());
            if (!thisAnswered) ++answered;
            ++refused;
        } catch (const ReplyError& e) {
            problems.push_back(where + ": " + e.what());  // denied, not a Sentinel, ROLE refused
            if (!thisAnswered) ++answered;
        } catch (const IoError& e) {
            problems.push_back(where + ": " + e.what());
            if (!thisAnswered) silent.push_back(problems.back());
        }
    }
    std::string all;
    for (const auto& p : problems) all += (all.empty() ? "" : "; ") + p;
    const std::string asked = "asked " + std::to_string(t.sentinels.size()) + " Sentinel" +
                              (t.sentinels.size() == 1 ? "" : "s") + " for \"" + t.service + "\"";
    if (answered == 0) throw ConnectionRefusedError("no Sentinel answered (" + asked + "): " + all);
    const std::string message =
        "no primary found for service \"" + t.service + "\" (" + asked + "): " + all;
    if (knowNoService.size() == answered) {
        // Said once, not once per Sentinel: the ones that know no such name, and why the
        // others were silent (down, unreachable).
        std::string whom;
        for (const auto& where : knowNoService) whom += (whom.empty() ? "" : ", ") + where;
        for (const auto& why : silent) whom += "; " + why;
        throw UnknownServiceError("no primary found for service \"" + t.service +
                                  "\": no Sentinel knows a service of that name (asked " + whom +
                                  ")");
    }
    if (refused == answered) throw AuthenticationError(message);
    throw ReplyError(message);
}

namespace {

// One entry of SENTINEL replicas (a flat field, value list): the replica when it is online.
std::optional<Endpoint> onlineReplica(const SentinelTarget& t, ReplyView entry) {
    if (!entry.isArray()) return std::nullopt;
    std::string_view ip, portText, flags, link;
    for (std::size_t i = 0; i + 1 < entry.size(); i += 2) {
        auto field = entry[i].text();
        if (field == "ip") ip = entry[i + 1].text();
        if (field == "port") portText = entry[i + 1].text();
        if (field == "flags") flags = entry[i + 1].text();
        if (field == "master-link-status") link = entry[i + 1].text();
    }
    for (const char* down : {"s_down", "o_down", "disconnected"})
        if (flags.find(down) != std::string_view::npos) return std::nullopt;
    int port = 0;
    auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
    if (ip.empty() || ec != std::errc() || end != portText.data() + portText.size() || port < 1 ||
        port > 65535 || (!link.empty() && link != "ok"))
        return std::nullopt;
    Endpoint e = t.data;
    e.host = std::string(ip);
    e.port = port;
    return e;
}

}  // namespace

std::vector<Endpoint> discoverReplicas(const SentinelTarget& t, const ConnectionOptions& options) {
    std::string problems;
    bool answered = false;
    for (const auto& s : t.sentinels) {
        const std::string where = s.host + ":" + std::to_string(s.port);
        try {
            Connection sentinel = openSentinel(t, s, options);
            Reply list = sentinel.command({"SENTINEL", "replicas", t.service});
            if (!list.view().isArray())
                throw ProtocolError(where + ": SENTINEL replicas is no list");
            std::vector<Endpoint> online;
            for (std::size_t i = 0; i < list.size(); ++i)
                if (auto e = onlineReplica(t, list[i])) online.push_back(std::move(*e));
            // A Sentinel that started a moment ago may not have heard of the replicas yet
            // (it learns them from the primary's INFO): another one may know them.
            if (!online.empty()) return online;
            answered = true;
        } catch (const ReplyError& e) {
            problems += (problems.empty() ? "" : "; ") + where + ": " + e.what();
        } catch (const IoError& e) {
            problems += (problems.empty() ? "" : "; ") + where + ": " + e.what();
        }
    }
    if (answered) return {};
    throw ConnectionRefusedError("no Sentinel listed the replicas of \"" + t.service +
                                 "\": " + problems);
}

}  // namespace lockscope

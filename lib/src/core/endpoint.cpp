#include "lockscope/endpoint.h"

#include <charconv>

#include "lockscope/errors.h"

namespace lockscope {
namespace {

[[noreturn]] void bad(std::string_view url, const std::string& why) {
    // Never echo a password back: show only the scheme and what went wrong.
    std::string shown(
        url.substr(0, url.find("://") == std::string_view::npos ? 0 : url.find("://") + 3));
    throw InvalidArgumentError("invalid Redis URL" + (shown.empty() ? "" : " (" + shown + "...)") +
                               ": " + why);
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percentDecode(std::string_view url, std::string_view part, const char* what) {
    std::string out;
    for (std::size_t i = 0; i < part.size(); ++i) {
        if (part[i] != '%') {
            out += part[i];
            continue;
        }
        if (i + 2 >= part.size()) bad(url, std::string("bad %-escape in ") + what);
        int hi = hexValue(part[i + 1]), lo = hexValue(part[i + 2]);
        if (hi < 0 || lo < 0) bad(url, std::string("bad %-escape in ") + what);
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

int parseNumber(std::string_view url, std::string_view text, const char* what, int min, int max) {
    int value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < min ||
        value > max) {
        bad(url, std::string(what) + " \"" + std::string(text.substr(0, 20)) +
                     "\" is not a number from " + std::to_string(min) + " to " +
                     std::to_string(max));
    }
    return value;
}

void checkPrintable(std::string_view url, std::string_view s) {
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7f) bad(url, "contains a control character");
}

Endpoint parseUnix(std::string_view url, std::string_view rest) {
    Endpoint e;
    auto query = rest.find('?');
    e.unixPath = std::string(rest.substr(0, query));
    if (e.unixPath.empty() || e.unixPath[0] != '/')
        bad(url, "a unix:// URL needs an absolute socket path");
    if (query != std::string_view::npos) {
        std::string_view q = rest.substr(query + 1);
        if (!q.starts_with("db=")) bad(url, "the only query parameter is db=N");
        e.db = parseNumber(url, q.substr(3), "database", 0, 1'000'000);
    }
    e.host.clear();
    e.port = 0;
    return e;
}

Endpoint parseTcp(std::string_view url, std::string_view rest) {
    Endpoint e;
    // The userinfo ends at the last '@' (no host or database holds one), so a password with
    // an unencoded '/' or '@' stays in it and no part of it is ever echoed in a message.
    auto at = rest.rfind('@');
    if (at != std::string_view::npos) {
        std::string_view userinfo = rest.substr(0, at);
        rest = rest.substr(at + 1);
        auto colon = userinfo.find(':');
        e.user = percentDecode(url, userinfo.substr(0, colon), "user");
        // Redis refuses such ACL user names, and a NUL would cut every message naming the
        // endpoint short (C strings end there).
        for (char c : e.user)
            if (c == '\0' || c == ' ' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                bad(url,
                    "the user name contains a NUL, a space or a control character "
                    "(Redis allows none in an ACL user name)");
        if (colon != std::string_view::npos)
            e.password = percentDecode(url, userinfo.substr(colon + 1), "password");
    }
    auto slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    if (slash != std::string_view::npos) {
        std::string_view db = rest.substr(slash + 1);
        if (!db.empty()) e.db = parseNumber(url, db, "database", 0, 1'000'000);
    }
    std::string_view portText;
    if (authority.starts_with('[')) {  // [::1]:6379
        auto close = authority.find(']');
        if (close == std::string_view::npos) bad(url, "IPv6 host is missing ']'");
        e.host = std::string(authority.substr(1, close - 1));
        std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after[0] != ':') bad(url, "unexpected text after the IPv6 host");
            portText = after.substr(1);
            if (portText.empty()) bad(url, "port is empty");
        }
    } else {
        auto colon = authority.rfind(':');
        e.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos) {
            portText = authority.substr(colon + 1);
            if (portText.empty()) bad(url, "port is empty");
        }
    }
    if (e.host.empty()) bad(url, "host is empty");
    for (char c : e.host)
        if (c == ' ' || c == '/' || c == '?' || c == '#' || c == '@')
            bad(url, "host contains '" + std::string(1, c) + "'");
    if (!portText.empty()) e.port = parseNumber(url, portText, "port", 1, 65535);
    return e;
}

}  // namespace

Endpoint parseEndpoint(std::string_view url) {
    if (url.empty()) bad(url, "it is empty");
    if (url.size() > 4096) bad(url, "it is longer than 4096 characters");
    checkPrintable(url, url);
    auto sep = url.find("://");
    if (sep == std::string_view::npos)
        bad(url, "missing scheme (expected redis://host:port or unix:///path)");
    std::string_view scheme = url.substr(0, sep), rest = url.substr(sep + 3);
    if (scheme == "redis") return parseTcp(url, rest);
    if (scheme == "unix") return parseUnix(url, rest);
    if (scheme == "rediss") {
        Endpoint e = parseTcp(url, rest);
        e.tls.enabled = true;
        return e;
    }
    bad(url, "unknown scheme \"" + std::string(scheme.substr(0, 20)) +
                 "\" (expected redis, rediss or unix)");
}

void mergeTlsOptions(TlsOptions& into, const TlsOptions& given) {
    into.enabled = into.enabled || given.enabled;
    into.insecure = into.insecure || given.insecure;
    for (auto field : {&TlsOptions::caFile, &TlsOptions::caDir, &TlsOptions::certFile,
                       &TlsOptions::keyFile, &TlsOptions::keyPassphrase, &TlsOptions::serverName})
        if (!(given.*field).empty()) into.*field = given.*field;
}

std::string Endpoint::display() const {
    std::string out;
    if (isUnix()) {
        out = "unix://" + unixPath;
        if (db != 0) out += "?db=" + std::to_string(db);
        return out;
    }
    out = tls.enabled ? "rediss://" : "redis://";
    if (!user.empty()) out += user + "@";
    out += host.find(':') != std::string::npos ? "[" + host + "]" : host;
    out += ":" + std::to_string(port);
    if (db != 0) out += "/" + std::to_string(db);
    return out;
}

}  // namespace lockscope

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <fstream>

#include "lockscope/errors.h"
#include "lockscope/fleet/scrape_targets.h"

namespace lockscope::fleet {
namespace {

[[noreturn]] void bad(const std::string& why) {
    throw InvalidArgumentError(why);
}

std::string lowered(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool hasControlCharacter(std::string_view text) {
    return std::any_of(text.begin(), text.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// A host a pattern can be trusted to match: a name or an address, nothing a glob could be
// fooled by ('#', '@', '/', spaces).
bool isPlainHost(std::string_view host) {
    return !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' ||
               c == ':' || c == '_';
    });
}

bool hasScheme(std::string_view text) {
    return text.find("://") != std::string_view::npos;
}

void checkPattern(std::string_view pattern) {
    if (pattern.empty()) bad("an allowed target pattern is empty");
    if (pattern.size() > kMaxTargetLength)
        bad("an allowed target pattern is longer than " + std::to_string(kMaxTargetLength));
    if (hasControlCharacter(pattern)) bad("an allowed target pattern holds control characters");
    if (pattern.find('@') != std::string_view::npos)
        bad("an allowed target pattern carries user info; credentials go in the credentials file");
}

}  // namespace

ScrapeTarget parseScrapeTarget(std::string_view text) {
    if (text.empty()) bad("the target is empty");
    if (text.size() > kMaxTargetLength)
        bad("the target is longer than " + std::to_string(kMaxTargetLength) + " characters");
    if (hasControlCharacter(text)) bad("the target holds control characters");
    std::string url = hasScheme(text) ? std::string(text) : "redis://" + std::string(text);
    auto schemeEnd = url.find("://");
    auto scheme = lowered(url.substr(0, schemeEnd));
    if (scheme != "redis" && scheme != "rediss")
        bad("the target must be a redis:// or rediss:// URL (not " + scheme + "://)");
    if (url.find('@') != std::string::npos)
        bad("the target carries user info; credentials come from the credentials file only");
    url.replace(0, schemeEnd, scheme);

    ScrapeTarget target;
    target.endpoint = parseEndpoint(url);
    auto& e = target.endpoint;
    e.host = lowered(e.host);
    if (!isPlainHost(e.host)) bad("the target's host is not a host name or address");
    target.canonical = scheme + "://" +
                       (e.host.find(':') != std::string::npos ? "[" + e.host + "]" : e.host) + ":" +
                       std::to_string(e.port) + (e.db ? "/" + std::to_string(e.db) : "");
    return target;
}

void TargetAllowList::allow(std::string_view pattern) {
    checkPattern(pattern);
    patterns_.emplace_back(pattern);
}

void TargetAllowList::allowFromFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) bad("cannot read the targets file " + path);
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
        auto begin = line.find_first_not_of(" \t\r");
        if (begin == std::string::npos || line[begin] == '#') continue;
        auto end = line.find_last_not_of(" \t\r");
        try {
            allow(std::string_view(line).substr(begin, end - begin + 1));
        } catch (const InvalidArgumentError& e) {
            bad(path + ":" + std::to_string(number) + ": " + e.what());
        }
    }
}

bool TargetAllowList::allows(const ScrapeTarget& target) const {
    auto withoutScheme = target.canonical.substr(target.canonical.find("://") + 3);
    return std::any_of(patterns_.begin(), patterns_.end(), [&](const std::string& pattern) {
        const auto& subject = hasScheme(pattern) ? target.canonical : withoutScheme;
        return fnmatch(pattern.c_str(), subject.c_str(), FNM_CASEFOLD) == 0;
    });
}

}  // namespace lockscope::fleet

#include <fnmatch.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "lockscope/errors.h"
#include "lockscope/fleet/scrape_targets.h"

namespace lockscope::fleet {
namespace {

using Json = nlohmann::json;

constexpr std::size_t kMaxCredentialsBytes = std::size_t{1024} * 1024;

[[noreturn]] void bad(const std::string& path, const std::string& why) {
    throw InvalidArgumentError("credentials file " + path + ": " + why);
}

std::string readPrivateFile(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
        bad(path, "not a readable file");
    if ((info.st_mode & (S_IRWXG | S_IRWXO)) != 0)
        bad(path, "group or others may read it; it holds passwords (chmod 600 it)");
    if (static_cast<std::size_t>(info.st_size) > kMaxCredentialsBytes)
        bad(path, "larger than 1 MiB");
    std::ifstream in(path, std::ios::binary);
    if (!in) bad(path, "cannot be read");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string textField(const Json& object, const char* key, const std::string& path,
                      const std::string& pattern) {
    auto it = object.find(key);
    if (it == object.end()) return {};
    if (!it->is_string()) bad(path, "\"" + pattern + "\": " + key + " is not text");
    return it->get<std::string>();
}

bool flagField(const Json& object, const char* key, const std::string& path,
               const std::string& pattern) {
    auto it = object.find(key);
    if (it == object.end()) return false;
    if (!it->is_boolean()) bad(path, "\"" + pattern + "\": " + key + " is not true or false");
    return it->get<bool>();
}

[[noreturn]] void unknownField(const std::string& path, const std::string& pattern,
                               const std::string& key) {
    bad(path, "\"" + pattern + "\": unknown field \"" + key + '"');
}

// Every key is known: a misspelt "pasword" must fail, not connect without a password.
void checkKeys(const Json& object, std::initializer_list<const char*> known,
               const std::string& path, const std::string& pattern) {
    for (const auto& item : object.items()) {
        const auto& key = item.key();
        if (std::none_of(known.begin(), known.end(), [&](const char* k) { return key == k; }))
            unknownField(path, pattern, key);
    }
}

TlsOptions readTls(const Json& tls, const std::string& path, const std::string& pattern) {
    if (!tls.is_object()) bad(path, "\"" + pattern + "\": tls is not an object");
    checkKeys(tls, {"ca_file", "ca_dir", "cert_file", "key_file", "server_name", "insecure"}, path,
              pattern);
    TlsOptions options;
    options.enabled = true;
    options.caFile = textField(tls, "ca_file", path, pattern);
    options.caDir = textField(tls, "ca_dir", path, pattern);
    options.certFile = textField(tls, "cert_file", path, pattern);
    options.keyFile = textField(tls, "key_file", path, pattern);
    options.serverName = textField(tls, "server_name", path, pattern);
    options.insecure = flagField(tls, "insecure", path, pattern);
    return options;
}

}  // namespace

TargetCredentials TargetCredentials::fromFile(const std::string& path) {
    Json file;
    try {
        file = Json::parse(readPrivateFile(path));
    } catch (const Json::parse_error& e) {
        bad(path, "not valid JSON (it stops at byte " + std::to_string(e.byte) + ")");
    }
    if (!file.is_object()) bad(path, "not a JSON object of target → credentials");
    TargetCredentials credentials;
    for (const auto& [pattern, value] : file.items()) {
        TargetAllowList check;
        try {
            check.allow(pattern);
        } catch (const InvalidArgumentError& e) {
            bad(path, e.what());
        }
        if (!value.is_object()) bad(path, "\"" + pattern + "\" is not an object");
        checkKeys(value, {"user", "password", "tls"}, path, pattern);
        Entry entry{pattern,
                    textField(value, "user", path, pattern),
                    textField(value, "password", path, pattern),
                    {}};
        if (value.contains("tls")) entry.tls = readTls(value["tls"], path, pattern);
        credentials.entries_.push_back(std::move(entry));
    }
    return credentials;
}

bool TargetCredentials::applyTo(ScrapeTarget& target) const {
    auto withoutScheme = target.canonical.substr(target.canonical.find("://") + 3);
    auto matches = [&](const Entry& e, bool exact) {
        bool schemed = e.pattern.find("://") != std::string::npos;
        const auto& subject = schemed ? target.canonical : withoutScheme;
        return exact ? e.pattern == subject
                     : fnmatch(e.pattern.c_str(), subject.c_str(), FNM_CASEFOLD) == 0;
    };
    for (bool exact : {true, false})
        for (const auto& e : entries_)
            if (matches(e, exact)) {
                target.endpoint.user = e.user;
                target.endpoint.password = e.password;
                if (e.tls.enabled) mergeTlsOptions(target.endpoint.tls, e.tls);
                return true;
            }
    return false;
}

}  // namespace lockscope::fleet

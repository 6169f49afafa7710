#include "fleet/import_file.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>

#include "lockscope/errors.h"
#include "lockscope/fleet/connection_import.h"

namespace lockscope::fleet::detail {
namespace {

[[noreturn]] void refuse(const std::string& why) {
    throw InvalidArgumentError("cannot import this file: " + why);
}

std::string_view trimmed(std::string_view text) {
    auto isSpace = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
    return text;
}

// A control byte other than tab and line ends means a binary file (an image, a keychain dump),
// not a connections list; JSON escapes control characters, so a real export never has one.
bool looksBinary(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        auto u = static_cast<unsigned char>(c);
        return (u < 0x20 && c != '\t' && c != '\n' && c != '\r') || u == 0x7f;
    });
}

bool isBase64Text(std::string_view text) {
    if (text.size() < 4 || text.size() % 4 != 0) return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '/' || c == '=';
    });
}

// OpenSSL's decoder: EVP_DecodeBlock writes 3 bytes per 4 and counts the padding as zeros.
std::optional<std::string> fromBase64(std::string_view text) {
    std::string out(text.size() / 4 * 3, '\0');
    int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()),
                                  static_cast<int>(text.size()));
    if (written < 0) return std::nullopt;
    auto padding = static_cast<std::size_t>(std::count(text.end() - 2, text.end(), '='));
    out.resize(static_cast<std::size_t>(written) - padding);
    return out;
}

nlohmann::json parseJson(std::string_view text, std::string_view what) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        refuse(std::string(what) + " is not valid JSON (it stops making sense at byte " +
               std::to_string(e.byte) + ")");
    }
}

std::vector<UrlLine> urlLines(std::string_view text) {
    std::vector<UrlLine> lines;
    std::size_t number = 0;
    while (!text.empty()) {
        auto end = text.find('\n');
        auto line = trimmed(text.substr(0, end));
        ++number;
        if (!line.empty() && line.front() != '#') lines.push_back({number, std::string(line)});
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    }
    return lines;
}

bool namesAScheme(const UrlLine& line) {
    return line.text.find("://") != std::string::npos;
}

}  // namespace

DecodedFile decodeFile(std::string_view contents) {
    if (contents.size() > kMaxImportBytes)
        refuse("it is " + std::to_string(contents.size()) + " bytes; at most " +
               std::to_string(kMaxImportBytes) + " are read");
    if (contents.substr(0, 3) == "\xEF\xBB\xBF") contents.remove_prefix(3);  // a UTF-8 BOM
    if (looksBinary(contents)) refuse("it is binary, not text");
    auto text = trimmed(contents);
    if (text.empty()) refuse("it is empty");

    DecodedFile file;
    if (text.front() == '[' || text.front() == '{') {
        file.json = parseJson(text, "the file");
        return file;
    }
    if (isBase64Text(text)) {
        auto decoded = fromBase64(text);
        auto inner = decoded ? trimmed(*decoded) : std::string_view{};
        if (inner.empty() || (inner.front() != '[' && inner.front() != '{') || looksBinary(inner))
            refuse("it is base64, but not of a JSON connections list");
        file.json = parseJson(inner, "the base64-decoded file");
        file.fromBase64 = true;
        return file;
    }
    file.urlLines = urlLines(text);
    if (std::none_of(file.urlLines.begin(), file.urlLines.end(), namesAScheme))
        refuse(
            "it is neither JSON (RedisInsight, Another Redis Desktop Manager, RESP.app, "
            "LockScope), an .ano export, nor a list of redis:// or rediss:// URLs");
    return file;
}

}  // namespace lockscope::fleet::detail

#pragma once
// The first look at an import file, before any entry is read: is it text, JSON (directly or as
// the base64 of an .ano export) or a list of URLs? Whatever fails here fails the whole file.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockscope::fleet::detail {

struct UrlLine {
    std::size_t lineNumber = 0;  // 1-based
    std::string text;            // trimmed
};

struct DecodedFile {
    std::optional<nlohmann::json> json;  // set for JSON and base64-of-JSON files
    bool fromBase64 = false;
    std::vector<UrlLine> urlLines;  // set otherwise: the non-blank, non-comment lines
};

// Throws InvalidArgumentError: empty, binary, too big, JSON that does not parse, base64 that
// is not of JSON, lines none of which is a redis URL.
DecodedFile decodeFile(std::string_view contents);

}  // namespace lockscope::fleet::detail

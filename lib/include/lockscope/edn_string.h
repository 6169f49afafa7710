#pragma once
// One EDN string literal writer for every EDN file LockScope writes (the torture history, the
// teaching stories' Jepsen history), safe for any bytes: a quote, a backslash, control
// characters and bytes that are not UTF-8 never break the file a Clojure reader (Knossos,
// Jepsen) parses.

#include <string>
#include <string_view>

namespace lockscope {

// `bytes` as an EDN string literal, in double quotes: \" and \\ escaped, \n \t \r as such,
// other control characters (and DEL) as \uXXXX, valid UTF-8 copied as it is, and each byte
// of an invalid UTF-8 sequence as \u00XX (the byte read as Latin-1), so the output is valid
// UTF-8 and every input byte can be read back from it.
std::string ednString(std::string_view bytes);

}  // namespace lockscope

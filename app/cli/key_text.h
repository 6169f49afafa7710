#pragma once
// Naming any bytes on the command line: a key or token with NUL, newlines or bytes that are
// not UTF-8 cannot be typed as is, so it can be given in hex (--key-hex 6c6f636b00) or in the
// escaped form the table and the messages print (--escaped "lock:\x00a"), where every byte
// that is not printable ASCII, and the backslash itself, is \xNN. Copied from the table, a
// key round-trips.

#include <string>
#include <string_view>

namespace lockscope::cli {

// "6c6f636b" -> "lock". Throws UsageError naming `what` for odd length or a non-hex digit.
std::string fromHex(std::string_view hex, const std::string& what);

// "lock:\x00a" -> "lock:" NUL "a". Throws UsageError naming `what` for a backslash that does not
// start \xNN (the table never prints one).
std::string fromEscaped(std::string_view text, const std::string& what);

}  // namespace lockscope::cli

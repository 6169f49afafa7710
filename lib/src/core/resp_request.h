#pragma once
// Encoding a command in the Redis protocol (RESP: an array of bulk strings), binary-safe,
// into a caller's buffer. hiredis' redisFormatCommandArgv does the same but allocates a
// fresh buffer per command; the streaming scanner and Redlock's rounds encode hundreds of
// thousands of commands, and Redlock sends the same bytes to every node.

#include <span>
#include <string>
#include <string_view>

namespace lockscope {

// Appends one command, e.g. {"PTTL", "lock:a"} -> "*2\r\n$4\r\nPTTL\r\n$6\r\nlock:a\r\n".
void appendRespRequest(std::string& out, std::span<const std::string_view> argv);

}  // namespace lockscope

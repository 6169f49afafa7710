#pragma once
// How the connection names a command in its errors and to its observer: the
// command's name in capitals, and its arguments with binary and long ones
// abbreviated. Internal to lockscope_core.

#include <string>
#include <string_view>

#include "lockscope/connection.h"

namespace lockscope::command_text {

// The first 32 characters of s in capitals ("evalsha" -> "EVALSHA").
std::string upper(std::string_view s);
// "EVALSHA 3f2c… 2 lock:{a} fence:{a} …" with binary and long arguments
// abbreviated.
std::string describe(Connection::Argv argv);
// SUBSCRIBE, PSUBSCRIBE or SSUBSCRIBE: messages arrive unasked from then on.
bool isSubscribe(Connection::Argv argv);

}  // namespace lockscope::command_text

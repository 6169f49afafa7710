#pragma once
// Lock tokens: 128 bits from the operating system's CSPRNG (getrandom, drawn in batches per
// thread into a pool that a fork wipes), as hex.
// Never std::mt19937: a predictable token lets another client forge a release.

#include <string>

namespace lockscope {

std::string randomToken();  // 32 lowercase hex digits

}  // namespace lockscope

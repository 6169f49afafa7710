#pragma once
// Which commands a read-only connection may send: an allow-list, so a command LockScope
// forgot to classify is refused rather than sent.

#include <span>
#include <string_view>

namespace lockscope {

bool isReadOnlySafe(std::span<const std::string_view> argv);

}  // namespace lockscope

#pragma once
// Precompiled for each lib module and the CLI: the standard headers most of their files
// include anyway. Parsing them was about 1.1 s of a lib file's 2.5 s of compile time (220
// files on a fresh build, issue 32). Only headers that never change belong here, and every
// file still includes what it uses: clang-tidy compiles each file without this header.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

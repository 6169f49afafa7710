#pragma once
// One entry of a JSON export, whichever tool wrote it. Every field LockScope uses is looked up
// under each name the tools give it (one table, the way RedisInsight's own import reads the
// others' files), so a file from a tool version we have not seen still imports what it can.

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "lockscope/fleet/connection_import.h"

namespace lockscope::fleet::detail {

ImportEntry readJsonEntry(const nlohmann::json& item, std::size_t position,
                          const std::string& group);

// Which tool wrote an entry, by the keys only it uses.
ImportFormat guessFormat(const nlohmann::json& item);

}  // namespace lockscope::fleet::detail

#include "command_text.h"

#include <cctype>

#include "lockscope/text_format.h"

namespace lockscope::command_text {

std::string upper(std::string_view s) {
    std::string out(s.substr(0, 32));
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string describe(Connection::Argv argv) {
    std::string out;
    for (std::size_t i = 0; i < argv.size() && i < 8; ++i) {
        if (i) out += ' ';
        out += i == 0 ? upper(argv[i]) : printable(argv[i], 48);
    }
    if (argv.size() > 8) out += " … (" + std::to_string(argv.size()) + " args)";
    return out;
}

bool isSubscribe(Connection::Argv argv) {
    std::string name = upper(argv[0]);
    return name == "SUBSCRIBE" || name == "PSUBSCRIBE" || name == "SSUBSCRIBE";
}

}  // namespace lockscope::command_text

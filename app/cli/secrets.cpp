#include "secrets.h"

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

#include "cli_command.h"

namespace lockscope::cli {
namespace {

void blank(char* from, std::size_t count) {
    std::memset(from, 'x', count);
}

// The password inside redis://user:password@host: the bytes between the first ':' of the
// userinfo and its last '@' (as parseEndpoint reads it).
bool scrubUrl(char* url) {
    std::string_view text(url);
    auto scheme = text.find("://");
    if (scheme == std::string_view::npos) return false;
    auto at = text.rfind('@');
    if (at == std::string_view::npos || at < scheme) return false;
    auto colon = text.find(':', scheme + 3);
    if (colon == std::string_view::npos || colon >= at || colon + 1 == at) return false;
    blank(url + colon + 1, at - colon - 1);
    return true;
}

bool isUrlOption(std::string_view a) {
    return a == "-u" || a == "--url" || a == "--live";
}

}  // namespace

bool scrubPasswordsFromArgv(int argc, char** argv) {
    bool scrubbed = false;
    for (int i = 1; i < argc; ++i) {
        std::string_view a(argv[i]);
        if (a == "--") break;
        if ((a == "-a" || a == "--pass") && i + 1 < argc) {
            blank(argv[i + 1], std::strlen(argv[i + 1]));
            scrubbed = scrubbed || argv[i + 1][0] != '\0';
            ++i;
        } else if (a.starts_with("--pass=") || (a.starts_with("-a") && !a.starts_with("--"))) {
            std::size_t from = a.starts_with("--pass=") ? 7 : 2;
            blank(argv[i] + from, a.size() - from);
            scrubbed = scrubbed || a.size() > from;
        } else if (isUrlOption(a) && i + 1 < argc) {
            scrubbed = scrubUrl(argv[++i]) || scrubbed;
        } else if (a.starts_with("--url=") || a.starts_with("--live=") ||
                   (a.starts_with("-u") && !a.starts_with("--"))) {
            scrubbed = scrubUrl(argv[i]) || scrubbed;
        }
    }
    return scrubbed;
}

std::string askPassword(const char* prompt) {
    int tty = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (tty < 0) throw UsageError("--askpass needs a terminal (or set REDISCLI_AUTH)");
    termios saved{};
    bool restore = ::tcgetattr(tty, &saved) == 0;
    if (restore) {
        termios quiet = saved;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        quiet.c_lflag |= ECHONL;
        ::tcsetattr(tty, TCSAFLUSH, &quiet);
    }
    [[maybe_unused]] auto w = ::write(tty, prompt, std::strlen(prompt));
    std::string password;
    char c = 0;
    while (::read(tty, &c, 1) == 1 && c != '\n' && password.size() < 4096) password += c;
    if (restore) ::tcsetattr(tty, TCSAFLUSH, &saved);
    ::close(tty);
    return password;
}

}  // namespace lockscope::cli

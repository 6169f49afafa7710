#pragma once
// Narration that leaves lib/ as a message id with arguments, so a front end can translate
// it (the window renders it with Qt's qtTrId; lib/ stays Qt-free). Every id has an English
// template here, with %1 .. %9 for its arguments, which is what the CLI prints and what a
// front end falls back to when it has no translation.

#include <string>
#include <string_view>
#include <vector>

namespace lockscope::sim {

struct Message {
    std::string id;                 // "sim.gtd.sends-del"; empty: literal text in args[0]
    std::vector<std::string> args;  // %1, %2, ... in order

    static Message literal(std::string text) { return {{}, {std::move(text)}}; }
    bool operator==(const Message&) const = default;
};

// The English template of an id ("%1 sends DEL."), empty for an unknown id.
std::string_view englishTemplate(std::string_view id);

// Puts the arguments into a template: "%n" (n = 1..9) becomes args[n-1]; "%%" a single "%";
// anything else, including a "%" in an argument, is copied as it is.
std::string fillTemplate(std::string_view text, const std::vector<std::string>& args);

// The English text of a message (a literal's text as it is).
std::string renderEnglish(const Message& message);

// Several messages as one narration: English texts joined by a space.
std::string renderEnglish(const std::vector<Message>& messages);

}  // namespace lockscope::sim

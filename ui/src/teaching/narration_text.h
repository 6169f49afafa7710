#pragma once
// The teaching narration in the user's language: lib/ gives a beat's narration as message
// ids with arguments (lockscope/sim/message.h); this renders each with qtTrId, so an
// installed translation (ui/translations/*.ts) replaces the English template.

#include <QLocale>
#include <QString>

#include "lockscope/sim/message.h"
#include "lockscope/sim/timeline.h"

class QCoreApplication;

namespace lockscope::ui {

// One message: its translation when one is installed, else lib's English template, with
// the arguments put in. A literal comes back as it is.
QString messageText(const sim::Message& message);

// A beat's narration: its messages translated and joined, or the English text of a beat
// narrated without ids.
QString narrationText(const sim::Beat& beat);

// Installs the teaching translation for `locale` (":/i18n/lockscope_<lang>.qm") into the
// application, if one ships. Returns whether one did.
bool installTeachingTranslation(QCoreApplication& app, const QLocale& locale);

}  // namespace lockscope::ui

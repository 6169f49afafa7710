#include "narration_text.h"

#include <QCoreApplication>
#include <QTranslator>

#include "sim_text.h"

// The translations are compiled into this static library (Qt: "Using Resources in a
// Library"); outside any namespace, as Q_INIT_RESOURCE requires.
static void initTranslationResources() {
    Q_INIT_RESOURCE(translations);
}

namespace lockscope::ui {

QString messageText(const sim::Message& message) {
    if (message.id.empty()) return message.args.empty() ? QString() : qs(message.args.front());
    const QString translated = qtTrId(message.id.c_str());
    // qtTrId answers the id itself when no installed translation knows it.
    if (translated == QLatin1String(message.id.c_str())) return qs(sim::renderEnglish(message));
    // The same %n rules as lib's English rendering, so arguments behave alike.
    const QByteArray utf8 = translated.toUtf8();
    return qs(sim::fillTemplate(std::string_view(utf8.constData(), utf8.size()), message.args));
}

QString narrationText(const sim::Beat& beat) {
    if (beat.narrationParts.empty()) return qs(beat.narration);
    QStringList parts;
    for (const sim::Message& m : beat.narrationParts) {
        const QString text = messageText(m);
        if (!text.isEmpty()) parts << text;
    }
    return parts.join(QLatin1Char(' '));
}

bool installTeachingTranslation(QCoreApplication& app, const QLocale& locale) {
    initTranslationResources();
    auto* translator = new QTranslator(&app);
    if (!translator->load(locale, QStringLiteral("lockscope"), QStringLiteral("_"),
                          QStringLiteral(":/i18n"))) {
        delete translator;
        return false;
    }
    QCoreApplication::installTranslator(translator);
    return true;
}

}  // namespace lockscope::ui

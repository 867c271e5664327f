// SPDX-License-Identifier: GPL-3.0-or-later
#include "i18n.h"

#include <QAction>
#include <QActionEvent>
#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QRegularExpression>
#include <QTranslator>

using namespace Qt::StringLiterals;

namespace weft::I18n
{

namespace
{
// The translators this module installed carry this object name, so that a second call replaces them.
constexpr auto InstalledName = "weft-i18n-translator";

constexpr auto CleanerName = "weft-i18n-action-texts";
constexpr auto AutoToolTip = "weftAutoToolTip";

/// What QAction shows as its icon text and tool tip when none is set: the text without "&" and
/// "..." (Qt's qt_strippedText()), which leaves "(F)" of "ファイル(&F)" in tool bar buttons.
QString qtStripped(QString text)
{
    text.remove(u"..."_s);
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == u'&')
            text.remove(i, 1);
    }
    return text.trimmed();
}

/// Gives the actions shown in tool bars, menus and buttons an icon text and a default tool tip
/// without the accelerator, and keeps them so when the action's text changes.
class ActionTextCleaner : public QObject
{
public:
    explicit ActionTextCleaner(QObject *parent)
        : QObject(parent)
    {
        setObjectName(QString::fromLatin1(CleanerName));
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::ActionAdded)
            track(static_cast<QActionEvent *>(event)->action());
        return QObject::eventFilter(watched, event);
    }

private:
    void track(QAction *action)
    {
        if (!action || m_tracked.contains(action))
            return;
        m_tracked.insert(action);
        connect(action, &QObject::destroyed, this, [this, action] { m_tracked.remove(action); });
        connect(action, &QAction::changed, this, [action] { clean(action); });
        clean(action);
    }

    static void clean(QAction *action)
    {
        const QString text = action->text();
        if (action->isSeparator() || text.isEmpty())
            return;
        const QString clean = removeAccelerator(text);
        // Setting them emits changed() again, which then finds nothing to do.
        if (action->iconText() != clean)
            action->setIconText(clean);
        const QString tip = action->toolTip();
        if (tip != clean && (tip == qtStripped(text) || tip == action->property(AutoToolTip).toString())) {
            action->setProperty(AutoToolTip, clean);
            action->setToolTip(clean);
        }
    }

    QSet<QAction *> m_tracked;
};

bool load(QCoreApplication &app, const QLocale &locale, const QString &catalog, const QString &dir, QStringList &loaded)
{
    auto *translator = new QTranslator(&app);
    translator->setObjectName(QString::fromLatin1(InstalledName));
    // QTranslator tries the locale's UI languages in order: weft_zh_CN for zh-Hans-CN, weft_ja for ja-JP.
    if (!translator->load(locale, catalog, u"_"_s, dir) || !QCoreApplication::installTranslator(translator)) {
        delete translator;
        return false;
    }
    loaded.append(translator->filePath());
    return true;
}
} // namespace

QStringList installTranslations(QCoreApplication &app, const QLocale &locale)
{
    const QList<QTranslator *> earlier = app.findChildren<QTranslator *>(QString::fromLatin1(InstalledName), Qt::FindDirectChildrenOnly);
    for (QTranslator *translator : earlier) {
        QCoreApplication::removeTranslator(translator);
        delete translator;
    }
    if (!app.findChild<QObject *>(QString::fromLatin1(CleanerName), Qt::FindDirectChildrenOnly))
        app.installEventFilter(new ActionTextCleaner(&app));

    // English is the source language: there is no weft_en, so nothing is loaded and Qt's own
    // strings stay English too. The locale's UI languages are tried in order, so LANGUAGE=ja:en
    // with LANG=en_US gives Japanese.
    QStringList loaded;
    if (!load(app, locale, u"weft"_s, u":/i18n"_s, loaded))
        return loaded; // No Weft translation: a half-translated window (Qt's dialogs only) helps no one.
    load(app, locale, u"qtbase"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath), loaded);
    return loaded;
}

QString removeAccelerator(const QString &text)
{
    // "(&F)" as Chinese, Japanese and Korean translations write it, with the space before it.
    static const QRegularExpression cjk(u"\\s?\\(&[^&\\s]\\)"_s);
    QString result = text;
    result.remove(cjk);
    for (qsizetype i = 0; i < result.size(); ++i) {
        if (result.at(i) == u'&')
            result.remove(i, 1); // the character after it is kept, so "&&" becomes "&"
    }
    return result;
}

QStringList availableLanguages()
{
    QStringList languages;
    const QStringList files = QDir(u":/i18n"_s).entryList({u"weft_*.qm"_s}, QDir::Files, QDir::Name);
    for (const QString &file : files)
        languages.append(file.mid(5, file.size() - 5 - 3));
    return languages;
}

} // namespace weft::I18n

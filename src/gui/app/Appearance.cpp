// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/app/Appearance.h"

#include "npuscope/gui/app/ContrastStyle.h"
#include "npuscope/gui/common/DivergingScale.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <QApplication>
#include <QFont>
#include <QFontDatabase>
#include <QLocale>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QTranslator>

#include <algorithm>

namespace npuscope::gui {

namespace {

const QString kLanguageKey = QStringLiteral("appearance/language");
const QString kThemeKey = QStringLiteral("appearance/theme");
const QString kTimeUnitKey = QStringLiteral("appearance/timeUnit");
const QString kFontKey = QStringLiteral("appearance/fontPointSize");
const QString kNeutralBandKey = QStringLiteral("appearance/neutralBandPercent");

// The platform's style, palette and font before any change: Theme::System goes back to them.
struct Platform {
    QString style;
    QPalette palette;
    QFont font;
    bool captured = false;
};

Platform& platform()
{
    static Platform p;
    if (!p.captured) {
        p.style = QApplication::style() ? QApplication::style()->name() : QString();
        p.palette = QApplication::palette();
        p.font = QApplication::font();
        p.captured = true;
    }
    return p;
}

QTranslator*& installedTranslator()
{
    static QTranslator* translator = nullptr;
    return translator;
}

} // namespace

Appearance::Choices Appearance::load()
{
    QSettings s;
    Choices c;
    c.language = s.value(kLanguageKey, c.language).toString();
    const QString theme = s.value(kThemeKey).toString();
    c.theme = theme == QLatin1String("dark") ? Theme::Dark
        : theme == QLatin1String("light")    ? Theme::Light
                                             : Theme::System;
    // Milliseconds unless µs was chosen ("us"): ms became the default after µs.
    c.timeUnit
        = s.value(kTimeUnitKey).toString() == QLatin1String("us") ? TimeUnit::Microseconds : TimeUnit::Milliseconds;
    c.fontPointSize = std::clamp(s.value(kFontKey, 0).toInt(), 0, 32);
    c.neutralBandPercent = std::clamp(
        s.value(kNeutralBandKey, c.neutralBandPercent).toDouble(), 0.0, DivergingScale::kMaxNeutralBand * 100);
    return c;
}

void Appearance::save(const Choices& c)
{
    QSettings s;
    s.setValue(kLanguageKey, c.language);
    s.setValue(kThemeKey,
        c.theme == Theme::Dark ? QStringLiteral("dark")
                               : (c.theme == Theme::Light ? QStringLiteral("light") : QStringLiteral("system")));
    s.setValue(kTimeUnitKey, c.timeUnit == TimeUnit::Milliseconds ? QStringLiteral("ms") : QStringLiteral("us"));
    s.setValue(kFontKey, c.fontPointSize);
    s.setValue(kNeutralBandKey, c.neutralBandPercent);
}

QString Appearance::resolvedLanguage(const QString& setting)
{
    if (setting == QLatin1String("zh_CN") || setting == QLatin1String("en"))
        return setting;
    // QLocale::system() reads LANG / LC_ALL / LC_MESSAGES on Unix.
    const QLocale locale = QLocale::system();
    return locale.language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

bool Appearance::installTranslation(const QString& language)
{
    QTranslator*& current = installedTranslator();
    if (current) {
        QCoreApplication::removeTranslator(current);
        delete current;
        current = nullptr;
    }
    if (language == QLatin1String("en"))
        return true;
    auto* translator = new QTranslator(QCoreApplication::instance());
    // qt_add_translations embeds the .qm under :/i18n (CMakeLists.txt).
    if (!translator->load(QStringLiteral(":/i18n/npuscope_%1.qm").arg(language))) {
        delete translator;
        return false;
    }
    QCoreApplication::installTranslator(translator);
    current = translator;
    return true;
}

QPalette Appearance::darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xe6, 0xe8, 0xeb);
    const QColor disabled(0x80, 0x84, 0x8a);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9e, 0xa5));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3c));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x53));
    p.setColor(QPalette::Midlight, QColor(0x40, 0x43, 0x48));
    p.setColor(QPalette::Mid, QColor(0x5a, 0x5e, 0x65));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0d));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xd6));
    p.setColor(QPalette::HighlightedText, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Link, QColor(0x6c, 0xab, 0xf5));
    p.setColor(QPalette::LinkVisited, QColor(0xb3, 0x9d, 0xdb));
    for (const auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

QPalette Appearance::lightPalette()
{
    // Fusion's own palette is a light one.
    QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    const QPalette p = fusion ? fusion->standardPalette() : QPalette();
    delete fusion;
    return p;
}

namespace {

// A sans-serif family with the simplified Chinese characters, in order of preference; empty when none is installed.
QString chineseFamily()
{
    const QStringList families = QFontDatabase::families(QFontDatabase::SimplifiedChinese);
    for (const char* preferred : { "Noto Sans CJK SC", "Source Han Sans SC", "Source Han Sans CN", "WenQuanYi Micro Hei",
             "Microsoft YaHei", "PingFang SC", "Noto Sans SC" }) {
        if (families.contains(QLatin1String(preferred)))
            return QLatin1String(preferred);
    }
    return {};
}

} // namespace

bool Appearance::isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

QString Appearance::styleSheetFor(const QPalette& palette)
{
    if (!isDark(palette))
        return {};
    return QStringLiteral("QDockWidget::title { background: #3a3d42; }\n"
                          "QTableView { gridline-color: #44474d; }\n"
                          "QLabel#warningsBadge[clean=\"true\"] { background: #2f5a37; color: #e3f1e3; }\n");
}

void Appearance::apply(const Choices& c)
{
    const Platform& original = platform();
    switch (c.theme) {
    case Theme::Dark:
        QApplication::setStyle(new ContrastStyle);
        QApplication::setPalette(darkPalette());
        break;
    case Theme::Light:
        QApplication::setStyle(new ContrastStyle);
        QApplication::setPalette(lightPalette());
        break;
    case Theme::System:
        // Fusion (what Qt picks where the desktop names no style) gets the same fixes as the two themes (sort arrows
        // that point up for ascending order); a desktop's own style draws as it does.
        if (original.style.compare(QLatin1String("fusion"), Qt::CaseInsensitive) == 0)
            QApplication::setStyle(new ContrastStyle);
        else if (!original.style.isEmpty())
            QApplication::setStyle(original.style);
        QApplication::setPalette(original.palette);
        break;
    }
    TimeFormat::setTableUnit(
        c.timeUnit == TimeUnit::Microseconds ? TimeFormat::Unit::Microseconds : TimeFormat::Unit::Milliseconds);
    DivergingScale::setNeutralBand(c.neutralBandPercent / 100);
    QFont font = original.font;
    if (c.fontPointSize > 0)
        font.setPointSize(c.fontPointSize);
    // A Chinese UI in a Latin font draws its Han characters from a fallback font that is taller than the one widgets
    // size themselves by, so the bottoms of titles and headers are cut (dock titles, histogram captions): use a
    // family that has them, when the system has one.
    if (resolvedLanguage(c.language) == QLatin1String("zh_CN")) {
        if (const QString family = chineseFamily(); !family.isEmpty())
            font.setFamily(family);
    }
    QApplication::setFont(font);
}

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPalette>
#include <QString>

class QCoreApplication;

namespace npuscope::gui {

// The user's look-and-language choices (Settings dialog) and how they are applied to the application.
// Stored in QSettings under "appearance/". Every function: GUI thread only (they touch QApplication).
class Appearance {
public:
    enum class Theme { System, Light, Dark };
    enum class TimeUnit { Microseconds, Milliseconds };

    struct Choices {
        QString language = QStringLiteral("system"); // "system", "en" or "zh_CN"
        Theme theme = Theme::System;
        TimeUnit timeUnit = TimeUnit::Milliseconds; // Cluster steps' initial unit
        int fontPointSize = 0; // 0: the platform's default
        // The per-rank tables' colour: deviations from the median within ± this many per cent stay neutral
        // (DivergingScale), 0 .. 10 in steps of 0.5.
        double neutralBandPercent = 2.0;
    };

    static Choices load();
    static void save(const Choices& choices);

    // "zh_CN" or "en" for a setting: "system" follows the locale (LANG=zh_CN.UTF-8 gives "zh_CN").
    static QString resolvedLanguage(const QString& setting);
    // Installs the embedded translation of `language` ("zh_CN") on the application; "en" removes it. Returns false
    // when the translation is missing. The translator is owned by the application object.
    static bool installTranslation(const QString& language);

    // The Fusion style with a dark palette for Dark, the light one for Light; System keeps the platform's style and
    // palette (the saved light/dark of the platform is whatever it gives). Also applies the font size, the step tables'
    // unit (TimeFormat::setTableUnit) and the colour's neutral band (DivergingScale::setNeutralBand).
    static void apply(const Choices& choices);
    static QPalette darkPalette();
    static QPalette lightPalette();
    // Whether a palette is dark (its window colour is darker than its text): charts and the style sheet ask this.
    static bool isDark(const QPalette& palette);
    // The window's style sheet additions for a dark palette (dock titles and grid lines drawn in light colours in
    // ui/style.qss); empty for a light one.
    static QString styleSheetFor(const QPalette& palette);
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>
#include <QString>

class QWidget;

namespace npuscope::gui {

// Saves what a widget shows as an image file: PNG (device-independent pixels, as grab() paints it) or SVG (vector,
// the widget's paintEvent recorded through QSvgGenerator), chosen by the file's suffix (anything but .svg is PNG).
// GUI thread only.
class WidgetImage {
    Q_DECLARE_TR_FUNCTIONS(WidgetImage)

public:
    // false with error set when the file cannot be written.
    static bool save(QWidget* widget, const QString& path, QString* error);
    // Asks for a path (suggested name: baseName.png; PNG or SVG) and saves; reports a failure in a message box.
    static void saveWithDialog(QWidget* widget, const QString& baseName);
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/WidgetImage.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace npuscope::gui {

bool WidgetImage::save(QWidget* widget, const QString& path, QString* error)
{
    auto fail = [&] {
        if (error)
            *error = tr("Cannot write the image to %1").arg(QDir::toNativeSeparators(path));
        return false;
    };
    if (!widget)
        return fail();
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(widget->size());
        svg.setViewBox(widget->rect());
        svg.setTitle(widget->windowTitle().isEmpty() ? widget->objectName() : widget->windowTitle());
        svg.setDescription(QStringLiteral("npuscope"));
        QPainter painter;
        if (!painter.begin(&svg))
            return fail();
        widget->render(&painter);
        if (!painter.end())
            return fail();
        return QFileInfo(path).size() > 0 || fail();
    }
    const QImage image = widget->grab().toImage();
    if (image.isNull() || !image.save(path, "PNG"))
        return fail();
    return true;
}

void WidgetImage::saveWithDialog(QWidget* widget, const QString& baseName)
{
    QString filter = tr("PNG image (*.png)");
    const QString path = QFileDialog::getSaveFileName(widget, tr("Save image"),
        (baseName.isEmpty() ? QStringLiteral("npuscope") : baseName) + QStringLiteral(".png"),
        filter + QStringLiteral(";;") + tr("SVG image (*.svg)"), &filter);
    if (path.isEmpty())
        return;
    QString target = path;
    // The chosen filter decides the format when the name has no image suffix.
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        target += filter.contains(QLatin1String("svg")) ? QStringLiteral(".svg") : QStringLiteral(".png");
    QString error;
    if (!save(widget, target, &error))
        QMessageBox::warning(widget, tr("Save image"), error);
}

} // namespace npuscope::gui

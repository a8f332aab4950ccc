// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/FontWarmup.h"

#include <QGlyphRun>
#include <QImage>
#include <QPainter>
#include <QTextLayout>
#include <QTimer>

namespace npuscope::gui {

QList<QFont> FontWarmup::facesOf(const QFont& base)
{
    QList<QFont> faces;
    for (const bool bold : { false, true }) {
        for (const bool italic : { false, true }) {
            QFont f = base;
            f.setBold(bold);
            f.setItalic(italic);
            faces.append(f);
        }
    }
    // Chart axes and labels are drawn a point or two below the window's font.
    QFont small = base;
    if (small.pointSizeF() > 2)
        small.setPointSizeF(small.pointSizeF() - 1);
    faces.append(small);
    return faces;
}

int FontWarmup::warm(const QFont& font)
{
    // What the tables and charts print: figures, units, names, and the symbols that are not in every face.
    static const QString kSample = QStringLiteral("0123456789 .,:;%+-\u2212\u2013\u2014\u2026\u00b5\u00d7\u00b7\u2713\u2717"
                                                  "\u2191\u2193\u25b2\u25bc\u00b1\u2264\u2265 ms \u00b5s ns GB/s MB "
                                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz ()[]{}<>/_#@=\u00a7");
    QTextLayout layout(kSample, font);
    layout.beginLayout();
    layout.createLine();
    layout.endLayout();
    QImage image(8, 8, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    int glyphs = 0;
    for (const QGlyphRun& run : layout.glyphRuns()) {
        painter.drawGlyphRun(QPointF(0, 0), run);
        glyphs += static_cast<int>(run.glyphIndexes().size());
    }
    return glyphs;
}

void FontWarmup::schedule(QObject* context, const QFont& base)
{
    // A zero-interval timer owned by context, one face per timeout: each load stays well under the 100 ms a click may
    // take and input between them is served; the timer goes with its last face or with context.
    auto* timer = new QTimer(context);
    timer->setInterval(0);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, faces = facesOf(base)]() mutable {
        if (faces.isEmpty()) {
            timer->stop();
            timer->deleteLater();
            return;
        }
        warm(faces.takeFirst());
    });
    timer->start();
}

} // namespace npuscope::gui

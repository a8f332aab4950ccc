// SPDX-License-Identifier: Apache-2.0
// Every dock at the running scale factor (ctest runs this at 1, and with QT_SCALE_FACTOR 1.5 and 2): in a window that
// fills a 1920×1080 screen, each dock raised in the default layout and shown alone (as --view shows it) lies inside the
// window, clear of the status bar and of the dock tab bars, with its contents inside it; and in the window's image the
// status bar and the tab bars look as they do on their own (no dock painted over them).
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/DockScrollArea.h"

#include <QAbstractScrollArea>
#include <QDockWidget>
#include <QGuiApplication>
#include <QImage>
#include <QLayout>
#include <QScreen>
#include <QStatusBar>
#include <QTabBar>

#include <gtest/gtest.h>

#include <cmath>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

QRect inWindow(const QWidget* w, const QWidget* window) { return QRect(w->mapTo(window, QPoint(0, 0)), w->size()); }

// Share of the pixels of `part` (window coordinates) whose colour in the window's image differs from the widget's own
// rendering by more than a little (antialiasing at fractional scales).
double differingShare(const QImage& windowImage, QWidget* widget, const QRect& part, double dpr)
{
    const QImage own = widget->grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QRect device(static_cast<int>(std::lround(part.x() * dpr)), static_cast<int>(std::lround(part.y() * dpr)),
        own.width(), own.height());
    const QImage there = windowImage.copy(device).convertToFormat(QImage::Format_RGB32);
    if (there.size() != own.size())
        return 1.0;
    int64_t differing = 0;
    for (int y = 0; y < own.height(); ++y) {
        for (int x = 0; x < own.width(); ++x) {
            const QRgb a = own.pixel(x, y), b = there.pixel(x, y);
            if (std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) + std::abs(qBlue(a) - qBlue(b)) > 60)
                ++differing;
        }
    }
    return static_cast<double>(differing) / std::max(1, own.width() * own.height());
}

void checkDock(MainWindow& window, QDockWidget* dock, const std::string& how, QSize screen)
{
    const double dpr = window.devicePixelRatioF();
    const std::string what = dock->objectName().toStdString() + " (" + how + ", scale " + std::to_string(dpr) + ")";
    EXPECT_EQ(window.size(), screen) << what;
    const QSize windowNeeds = window.minimumSizeHint();
    EXPECT_LE(windowNeeds.width(), screen.width()) << what << ": the window needs more than the screen";
    EXPECT_LE(windowNeeds.height(), screen.height()) << what << ": the window needs more than the screen";
    const QRect dockRect = inWindow(dock, &window);
    const QRect statusRect = inWindow(window.statusBar(), &window);
    EXPECT_TRUE(window.rect().contains(dockRect)) << what;
    EXPECT_FALSE(dockRect.intersects(statusRect)) << what << ": over the status bar";
    std::vector<QWidget*> neighbours { window.statusBar() };
    for (QTabBar* bar : window.findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        // The main window keeps the tab bar of a group it no longer shows, empty and moved out of the window.
        if (!bar->isVisible() || bar->count() == 0 || !window.rect().intersects(inWindow(bar, &window)))
            continue;
        EXPECT_FALSE(dockRect.intersects(inWindow(bar, &window))) << what << ": over a dock tab bar";
        neighbours.push_back(bar);
    }
    // The dock is not smaller than its contents need, so nothing in it is cut off or pushed out.
    const QSize need = dock->minimumSizeHint();
    EXPECT_LE(need.width(), dock->width()) << what;
    EXPECT_LE(need.height(), dock->height()) << what;
    // Its contents lie inside it; a dock smaller than its content scrolls it (DockScrollArea), and then the widgets
    // lie inside the scrolled content (the layouts agree with their minimum sizes). Other scrolled contents (tables,
    // charts in their own scroll areas) may extend beyond their viewport, which clips them.
    std::string outside;
    for (QWidget* child : dock->findChildren<QWidget*>()) {
        if (!child->isVisibleTo(dock) || child->isWindow())
            continue;
        const QWidget* container = dock;
        for (QWidget* up = child->parentWidget(); up && up != dock; up = up->parentWidget()) {
            auto* area = qobject_cast<QAbstractScrollArea*>(up->parentWidget());
            if (area && up == area->viewport()) {
                auto* body = qobject_cast<DockScrollArea*>(area);
                container = body && child != body->widget() ? body->widget() : nullptr;
                break;
            }
        }
        if (!container)
            continue;
        const QRect r = inWindow(child, &window);
        if (!inWindow(container, &window).contains(r) && outside.size() < 400)
            outside += std::string(child->metaObject()->className()) + " " + child->objectName().toStdString() + " "
                + std::to_string(r.x()) + "," + std::to_string(r.y()) + " " + std::to_string(r.width()) + "x"
                + std::to_string(r.height()) + "; ";
    }
    EXPECT_TRUE(outside.empty()) << what << ": leaving the dock at " << dockRect.x() << "," << dockRect.y() << " "
                                 << dockRect.width() << "x" << dockRect.height() << ": " << outside;
    const QImage image = window.grab().toImage();
    for (QWidget* w : neighbours) {
        EXPECT_LT(differingShare(image, w, inWindow(w, &window), dpr), 0.02)
            << what << ": something is painted over " << w->metaObject()->className();
    }
}

} // namespace

TEST(HiDpi, EveryDockStaysInsideItself)
{
    const double dpr = QGuiApplication::primaryScreen()->devicePixelRatio();
    const QString scale = qEnvironmentVariable("QT_SCALE_FACTOR");
    if (!scale.isEmpty()) {
        EXPECT_DOUBLE_EQ(dpr, scale.toDouble());
    }
    MainWindow window(test::testOptions());
    // The window of a 1920×1080 screen at this scale, that size even when the docks' minimum sizes add up to more (as
    // a window manager or a maximised window imposes it): they must fit, or the main window's layout overlaps them.
    const QSize screen(static_cast<int>(1920 / dpr), static_cast<int>(1080 / dpr));
    window.layout()->setSizeConstraint(QLayout::SetNoConstraint);
    window.resize(screen);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    window.show();
    ASSERT_TRUE(window.waitUntilIdle(60000));
    // Default layout: each dock raised in its tab group.
    for (QDockWidget* dock : window.docks()) {
        dock->show();
        dock->raise();
        ASSERT_TRUE(window.waitUntilIdle(60000));
        checkDock(window, dock, "raised", screen);
    }
    // Each dock alone.
    for (QDockWidget* dock : window.docks()) {
        window.focusDock(dock);
        ASSERT_TRUE(window.waitUntilIdle(60000));
        checkDock(window, dock, "alone", screen);
        const QImage image = dock->grab().toImage();
        test::keepImage(image, QStringLiteral("hidpi_%1_%2.png").arg(dock->objectName()).arg(dpr));
    }
}

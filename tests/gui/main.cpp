// SPDX-License-Identifier: Apache-2.0
#include <QApplication>

#include <gtest/gtest.h>

int main(int argc, char** argv)
{
    // GUI tests never need a display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("npuscope-gui-tests"));
    QApplication::setOrganizationName(QStringLiteral("npuscope"));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

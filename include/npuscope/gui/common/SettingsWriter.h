// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QVariant>

namespace npuscope::gui {

// Writes QSettings values off the GUI thread. A QSettings object with changes writes its file when destroyed: it
// takes the file's lock and QSaveFile fsync()s the new file, 100-140 ms of the GUI thread on the CI machine's disk
// (measured by scripts/gui-session.sh: every session's longest stall was the layout saved in closeEvent). Here the
// value is handed to one background thread (QSettings is reentrant: instances on different threads are safe), which
// writes the queued changes in order.
//
// A QSettings read on the GUI thread sees a value once its write has run: value() sees it at once. flush() waits for
// every queued write; main() calls it after the event loop, and a test calls it before reading the file or changing
// the settings' path. Any thread.
class SettingsWriter {
public:
    static void setValue(const QString& key, const QVariant& value);
    static void remove(const QString& key);
    // key's value: a queued write of key first, then QSettings.
    static QVariant value(const QString& key, const QVariant& fallback = {});
    static void flush();
};

} // namespace npuscope::gui

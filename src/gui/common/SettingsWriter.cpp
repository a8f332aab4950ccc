// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/SettingsWriter.h"

#include "npuscope/core/ThreadPriority.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QSettings>
#include <QThreadPool>

#include <spdlog/spdlog.h>

#include <optional>

namespace npuscope::gui {

namespace {

struct Pending {
    QMutex mutex;
    // The newest queued value of each key not written yet (nullopt: removed), with the generation that wrote it.
    QHash<QString, std::pair<std::optional<QVariant>, quint64>> values;
    quint64 generation = 0;
};

Pending& pending()
{
    static Pending p;
    return p;
}

// One thread: the writes run in the order they were queued. Never Qt's global pool (painting uses it).
QThreadPool& writerPool()
{
    static QThreadPool pool;
    static const bool once = [] {
        pool.setMaxThreadCount(1);
        return true;
    }();
    (void)once;
    return pool;
}

void queue(const QString& key, std::optional<QVariant> value)
{
    quint64 generation = 0;
    {
        auto& p = pending();
        QMutexLocker lock(&p.mutex);
        generation = ++p.generation;
        p.values.insert(key, { value, generation });
    }
    writerPool().start([key, value, generation] {
        enterBackground();
        QSettings settings;
        if (value)
            settings.setValue(key, *value);
        else
            settings.remove(key);
        settings.sync(); // written (locked, fsync'd) here
        // Not a problem of the profile (Parse issues): the log says it.
        if (settings.status() != QSettings::NoError)
            spdlog::warn("settings: cannot write {} to {}", key.toStdString(), settings.fileName().toStdString());
        auto& p = pending();
        QMutexLocker lock(&p.mutex);
        if (auto it = p.values.find(key); it != p.values.end() && it.value().second == generation)
            p.values.erase(it);
    });
}

} // namespace

void SettingsWriter::setValue(const QString& key, const QVariant& value) { queue(key, value); }

void SettingsWriter::remove(const QString& key) { queue(key, std::nullopt); }

QVariant SettingsWriter::value(const QString& key, const QVariant& fallback)
{
    {
        auto& p = pending();
        QMutexLocker lock(&p.mutex);
        if (auto it = p.values.constFind(key); it != p.values.constEnd())
            return it.value().first ? *it.value().first : fallback;
    }
    return QSettings().value(key, fallback);
}

void SettingsWriter::flush() { writerPool().waitForDone(); }

} // namespace npuscope::gui

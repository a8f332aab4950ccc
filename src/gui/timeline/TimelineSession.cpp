// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/timeline/TimelineSession.h"

#include "npuscope/core/EnumNames.h"
#include "npuscope/gui/common/Workspace.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

#include <algorithm>
#include <set>

namespace npuscope::gui {

namespace {

using RowKind = TimelineRenderer::RowKind;

constexpr const char* kGroup = "timelineSessions";

constexpr EnumName<RowKind> kKindNames[] { { RowKind::Rank, "rank" }, { RowKind::Process, "process" },
    { RowKind::Track, "track" }, { RowKind::Counter, "counter" }, { RowKind::Group, "counters" } };

const char* kindName(RowKind k) { return nameOf(kKindNames, k, "rank"); }

std::optional<RowKind> kindFrom(const QString& name) { return valueOf(kKindNames, name.toStdString()); }

// int64 values travel as decimal strings: JSON numbers are doubles and epoch ns need 19 digits.
QString num(int64_t v) { return QString::number(static_cast<qlonglong>(v)); }
std::optional<int64_t> numFrom(const QJsonValue& v)
{
    bool ok = false;
    const qlonglong n = v.toString().toLongLong(&ok);
    return ok ? std::optional<int64_t>(n) : std::nullopt;
}

QJsonObject rowJson(const TimelineSession::RowId& id)
{
    QJsonObject o;
    o[QStringLiteral("kind")] = QLatin1String(kindName(id.kind));
    o[QStringLiteral("rank")] = num(id.rank);
    if (id.kind == RowKind::Process || id.kind == RowKind::Track || id.kind == RowKind::Counter)
        o[QStringLiteral("pid")] = num(id.pid);
    if (id.kind == RowKind::Track)
        o[QStringLiteral("tid")] = num(id.tid);
    if (id.kind == RowKind::Counter)
        o[QStringLiteral("counter")] = QString::fromStdString(id.counter);
    return o;
}

std::optional<TimelineSession::RowId> rowFrom(const QJsonValue& v)
{
    const QJsonObject o = v.toObject();
    const auto kind = kindFrom(o.value(QStringLiteral("kind")).toString());
    const auto rank = numFrom(o.value(QStringLiteral("rank")));
    if (!kind || !rank)
        return std::nullopt;
    TimelineSession::RowId id;
    id.kind = *kind;
    id.rank = *rank;
    id.pid = numFrom(o.value(QStringLiteral("pid"))).value_or(0);
    id.tid = numFrom(o.value(QStringLiteral("tid"))).value_or(0);
    id.counter = o.value(QStringLiteral("counter")).toString().toStdString();
    return id;
}

std::string counterId(const query::CounterTrack& c) { return c.name + "\n" + c.series; }

} // namespace

QByteArray TimelineSession::toJson() const
{
    QJsonObject root;
    QJsonObject offs;
    for (const auto& [rank, ns] : offsets)
        offs[num(rank)] = num(ns);
    root[QStringLiteral("offsets")] = offs;
    QJsonArray marks;
    for (const auto& m : markers) {
        QJsonObject o;
        o[QStringLiteral("name")] = m.name;
        o[QStringLiteral("begin")] = num(m.begin);
        o[QStringLiteral("end")] = num(m.end);
        marks.append(o);
    }
    root[QStringLiteral("markers")] = marks;
    for (const auto& [name, rows] : { std::pair { "pinned", &pinned }, std::pair { "hidden", &hidden } }) {
        QJsonArray a;
        for (const auto& id : *rows)
            a.append(rowJson(id));
        root[QLatin1String(name)] = a;
    }
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

TimelineSession TimelineSession::fromJson(const QByteArray& json)
{
    TimelineSession s;
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    const QJsonObject offs = root.value(QStringLiteral("offsets")).toObject();
    for (auto it = offs.begin(); it != offs.end(); ++it) {
        bool ok = false;
        const qlonglong rank = it.key().toLongLong(&ok);
        const auto ns = numFrom(it.value());
        if (ok && ns && *ns != 0)
            s.offsets[rank] = *ns;
    }
    for (const QJsonValue& v : root.value(QStringLiteral("markers")).toArray()) {
        const QJsonObject o = v.toObject();
        const auto begin = numFrom(o.value(QStringLiteral("begin")));
        const auto end = numFrom(o.value(QStringLiteral("end")));
        if (begin && end)
            s.markers.push_back({ o.value(QStringLiteral("name")).toString(), *begin, std::max(*begin, *end) });
    }
    for (const QJsonValue& v : root.value(QStringLiteral("pinned")).toArray()) {
        if (auto id = rowFrom(v))
            s.pinned.push_back(*id);
    }
    for (const QJsonValue& v : root.value(QStringLiteral("hidden")).toArray()) {
        if (auto id = rowFrom(v))
            s.hidden.push_back(*id);
    }
    return s;
}

QString TimelineSession::keyFor(const QStringList& sourcePaths) { return Workspace::inputSetKey(sourcePaths); }

TimelineSession TimelineSession::load(const QString& key)
{
    if (key.isEmpty())
        return {};
    QSettings settings;
    return fromJson(settings.value(QStringLiteral("%1/%2/state").arg(QLatin1String(kGroup), key)).toByteArray());
}

void TimelineSession::save(const QString& key) const
{
    if (key.isEmpty())
        return;
    QSettings settings;
    settings.beginGroup(QLatin1String(kGroup));
    if (empty()) {
        settings.remove(key);
        return;
    }
    settings.setValue(key + QStringLiteral("/state"), toJson());
    settings.setValue(key + QStringLiteral("/saved"), QDateTime::currentMSecsSinceEpoch());
    // Forget the least recently saved sessions beyond the cap.
    QStringList keys = settings.childGroups();
    if (keys.size() > kMaxEntries) {
        std::sort(keys.begin(), keys.end(), [&settings](const QString& a, const QString& b) {
            return settings.value(a + QStringLiteral("/saved")).toLongLong()
                < settings.value(b + QStringLiteral("/saved")).toLongLong();
        });
        for (int i = 0; i < keys.size() - kMaxEntries; ++i)
            settings.remove(keys[i]);
    }
}

std::optional<TimelineSession::RowId> TimelineSession::idOf(
    const TimelineRenderer& renderer, const TimelineRenderer::RowKey& key)
{
    const auto* e = renderer.entryOf(key);
    if (!e)
        return std::nullopt;
    RowId id;
    id.kind = key.kind;
    id.rank = e->rank;
    if (key.kind == RowKind::Rank || key.kind == RowKind::Group)
        return id;
    if (!e->data || key.item < 0)
        return std::nullopt;
    const auto item = static_cast<size_t>(key.item);
    switch (key.kind) {
    case RowKind::Process:
        if (item >= e->data->processes.size())
            return std::nullopt;
        id.pid = e->data->processes[item].pid;
        return id;
    case RowKind::Track:
        if (item >= e->data->tracks.size())
            return std::nullopt;
        id.pid = e->data->tracks[item].pid;
        id.tid = e->data->tracks[item].tid;
        return id;
    case RowKind::Counter:
        if (item >= e->data->counters.size())
            return std::nullopt;
        id.pid = e->data->counters[item].pid;
        id.counter = counterId(e->data->counters[item]);
        return id;
    default:
        return std::nullopt;
    }
}

void TimelineSession::capture(
    const TimelineRenderer& renderer, const std::vector<TimelineRenderer::Marker>& currentMarkers)
{
    std::set<int64_t> listed, loaded; // ranks the renderer lists / has the data of
    offsets.clear();
    for (const auto& e : renderer.ranks()) {
        listed.insert(e.rank);
        if (e.data)
            loaded.insert(e.rank);
        if (e.offsetNs != 0)
            offsets[e.rank] = e.offsetNs;
    }
    markers = currentMarkers;
    // Rank and Counters-group rows exist as soon as the rank is listed; the others once its data is loaded.
    auto known = [&](const RowId& id) {
        return id.kind == RowKind::Rank || id.kind == RowKind::Group ? listed.count(id.rank) > 0
                                                                     : loaded.count(id.rank) > 0;
    };
    std::erase_if(pinned, known);
    std::erase_if(hidden, known);
    for (const auto& key : renderer.pinnedKeys()) {
        if (auto id = idOf(renderer, key))
            pinned.push_back(*id);
    }
    for (const auto& key : renderer.hiddenKeys()) {
        if (auto id = idOf(renderer, key))
            hidden.push_back(*id);
    }
}

bool TimelineSession::applyRows(TimelineRenderer& renderer, int rankIndex) const
{
    const auto& ranks = renderer.ranks();
    if (rankIndex < 0 || static_cast<size_t>(rankIndex) >= ranks.size())
        return false;
    const auto& e = ranks[static_cast<size_t>(rankIndex)];
    // The row keys of this rank, by identity.
    std::map<RowId, TimelineRenderer::RowKey> keys;
    auto add = [&](RowKind kind, int item) {
        const TimelineRenderer::RowKey key { kind, rankIndex, item };
        if (auto id = idOf(renderer, key))
            keys.emplace(*id, key);
    };
    add(RowKind::Rank, 0);
    add(RowKind::Group, 0);
    for (size_t i = 0; e.data && i < e.data->processes.size(); ++i)
        add(RowKind::Process, static_cast<int>(i));
    for (size_t i = 0; e.data && i < e.data->tracks.size(); ++i)
        add(RowKind::Track, static_cast<int>(i));
    for (size_t i = 0; e.data && i < e.data->counters.size(); ++i)
        add(RowKind::Counter, static_cast<int>(i));
    bool changed = false;
    for (const auto& id : pinned) {
        if (id.rank != e.rank)
            continue;
        if (auto it = keys.find(id); it != keys.end() && !renderer.isPinned(it->second)) {
            renderer.setPinned(it->second, true);
            changed = true;
        }
    }
    for (const auto& id : hidden) {
        if (id.rank != e.rank)
            continue;
        if (auto it = keys.find(id); it != keys.end() && !renderer.isHidden(it->second)) {
            renderer.setHidden(it->second, true);
            changed = true;
        }
    }
    return changed;
}

} // namespace npuscope::gui

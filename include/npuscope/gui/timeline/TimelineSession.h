// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/timeline/TimelineRenderer.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::gui {

// What a user set up in the timeline of one set of inputs: per-rank time offsets, markers, pinned and hidden rows.
// Kept in the application's QSettings (never next to the profile, whose folders npuscope does not write), keyed by
// the input paths, and restored when the same inputs are opened again. Rows are named by what survives a reload
// (rank id, pid, tid or counter name), not by their index. Row order is not kept. GUI thread only.
class TimelineSession {
public:
    // A row by its stable identity.
    struct RowId {
        TimelineRenderer::RowKind kind = TimelineRenderer::RowKind::Rank;
        int64_t rank = 0; // rank id
        int64_t pid = 0; // Process, Track, Counter rows
        int64_t tid = 0; // Track rows
        std::string counter; // Counter rows: "<name>\n<series>"
        auto operator<=>(const RowId&) const = default;
    };

    std::map<int64_t, int64_t> offsets; // rank id -> display offset, ns (0 is not stored)
    std::vector<TimelineRenderer::Marker> markers;
    std::vector<RowId> pinned; // in pin order
    std::vector<RowId> hidden;

    bool empty() const { return offsets.empty() && markers.empty() && pinned.empty() && hidden.empty(); }

    QByteArray toJson() const;
    // Unknown or malformed entries are skipped.
    static TimelineSession fromJson(const QByteArray& json);

    // The settings key of a set of inputs (order and duplicates do not matter); empty for no inputs.
    static QString keyFor(const QStringList& sourcePaths);
    static TimelineSession load(const QString& key);
    // Stores the session (removes the entry when empty); keeps the kMaxEntries most recently saved sessions.
    void save(const QString& key) const;
    static constexpr int kMaxEntries = 64;

    // The identity of a row of the renderer; nullopt when its rank's data is not loaded (or no such row).
    static std::optional<RowId> idOf(const TimelineRenderer& renderer, const TimelineRenderer::RowKey& key);
    // Replaces this session's state with the renderer's and the markers: offsets of every rank, pins and hidden rows
    // the renderer can name. Rows of ranks whose data is not loaded keep what the session had for them.
    void capture(const TimelineRenderer& renderer, const std::vector<TimelineRenderer::Marker>& currentMarkers);
    // Pins and hides the session's rows that belong to rankIndex: its rank and Counters rows, and its process, thread
    // and counter rows once its data is loaded; rows that no longer exist are ignored. Returns whether anything
    // changed.
    bool applyRows(TimelineRenderer& renderer, int rankIndex) const;
};

} // namespace npuscope::gui

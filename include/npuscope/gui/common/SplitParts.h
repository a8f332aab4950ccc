// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/StepQuery.h"

#include <QColor>
#include <QString>

#include <cstdint>

namespace npuscope::gui {

// The parts of a StepSplit in drawing order, with the names and colours the pie, the per-rank bars
// and their legends share: five new-generation parts (step_trace_time.csv) then three old-generation
// ones (the MindSpore / MindInsight iteration trace). Any thread.
class SplitParts {
public:
    enum Part {
        ComputingNotOverlapped,
        Overlapped,
        CommunicationNotOverlapped,
        Free,
        Preparing,
        IterationInterval,
        FpBp,
        Tail,
        PartCount
    };

    static QString name(int part);
    static QColor color(int part);
    static int64_t value(const query::StepSplit& split, int part);
    // Whether a legend lists the part for this split: a new-generation split lists its five parts (as before); an
    // old-generation split lists all, the new-generation ones marked as not in this generation.
    static bool listed(const query::StepSplit& split, int part);
    // Whether the files behind the split have the part (false: show "—", never 0).
    static bool present(const query::StepSplit& split, int part);
    static bool isIterationTracePart(int part) { return part >= IterationInterval && part < PartCount; }
};

} // namespace npuscope::gui

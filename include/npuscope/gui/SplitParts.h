// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/StepQuery.h"

#include <QColor>
#include <QString>

#include <cstdint>

namespace npuscope::gui {

// The five parts of a StepSplit in drawing order, with the names and colours the pie, the
// per-rank bars and their legends share. Any thread.
class SplitParts {
public:
    enum Part { ComputingNotOverlapped, Overlapped, CommunicationNotOverlapped, Free, Preparing, PartCount };

    static QString name(int part);
    static QColor color(int part);
    static int64_t value(const query::StepSplit& split, int part);
};

} // namespace npuscope::gui

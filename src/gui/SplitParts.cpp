// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/SplitParts.h"

namespace npuscope::gui {

QString SplitParts::name(int part)
{
    switch (part) {
    case ComputingNotOverlapped:
        return QStringLiteral("Computing (not overlapped)");
    case Overlapped:
        return QStringLiteral("Overlapped");
    case CommunicationNotOverlapped:
        return QStringLiteral("Communication (not overlapped)");
    case Free:
        return QStringLiteral("Free");
    case Preparing:
        return QStringLiteral("Preparing");
    default:
        return {};
    }
}

QColor SplitParts::color(int part)
{
    // Compute blue, overlap a lighter blue-green (compute hiding communication), exposed
    // communication orange, idle grey, preparing sand: the costly parts are the warm ones.
    switch (part) {
    case ComputingNotOverlapped:
        return QColor(0x3b, 0x75, 0xaf);
    case Overlapped:
        return QColor(0x5f, 0xb3, 0xa9);
    case CommunicationNotOverlapped:
        return QColor(0xef, 0x8a, 0x2e);
    case Free:
        return QColor(0xb8, 0xb8, 0xb8);
    case Preparing:
        return QColor(0xd9, 0xc0, 0x6a);
    default:
        return QColor(Qt::black);
    }
}

int64_t SplitParts::value(const query::StepSplit& split, int part)
{
    switch (part) {
    case ComputingNotOverlapped:
        return split.computingNotOverlapped;
    case Overlapped:
        return split.overlapped;
    case CommunicationNotOverlapped:
        return split.communicationNotOverlapped;
    case Free:
        return split.free;
    case Preparing:
        return split.preparing;
    default:
        return 0;
    }
}

} // namespace npuscope::gui

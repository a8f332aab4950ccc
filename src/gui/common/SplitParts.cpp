// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/SplitParts.h"

#include <QCoreApplication>

namespace npuscope::gui {

QString SplitParts::name(int part)
{
    switch (part) {
    case ComputingNotOverlapped:
        return QCoreApplication::translate("SplitParts", "Computing (not overlapped)");
    case Overlapped:
        return QCoreApplication::translate("SplitParts", "Overlapped");
    case CommunicationNotOverlapped:
        return QCoreApplication::translate("SplitParts", "Communication (not overlapped)");
    case Free:
        return QCoreApplication::translate("SplitParts", "Free");
    case Preparing:
        return QCoreApplication::translate("SplitParts", "Preparing");
    case IterationInterval:
        return QCoreApplication::translate("SplitParts", "Iteration interval");
    case FpBp:
        return QCoreApplication::translate("SplitParts", "FP+BP");
    case Tail:
        return QCoreApplication::translate("SplitParts", "Tail");
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
    // Old generation: the interval is idle-like (data loading, host), fp+bp the compute, the tail the
    // gradient exchange and optimizer (warm, like exposed communication).
    // Shades distinct from the new-generation parts so the two legends are not confused.
    case IterationInterval:
        return QColor(0x9c, 0x94, 0xc4);
    case FpBp:
        return QColor(0x2c, 0x5d, 0x8a);
    case Tail:
        return QColor(0xd9, 0x5f, 0x3b);
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
    case IterationInterval:
        return split.iterationInterval;
    case FpBp:
        return split.fpBp;
    case Tail:
        return split.tail;
    default:
        return 0;
    }
}

bool SplitParts::listed(const query::StepSplit& split, int part)
{
    return split.iterationTrace || !isIterationTracePart(part);
}

bool SplitParts::present(const query::StepSplit& split, int part)
{
    if (split.iterationTrace)
        return isIterationTracePart(part);
    if (part == Preparing)
        return split.hasPreparing;
    return !isIterationTracePart(part);
}

} // namespace npuscope::gui

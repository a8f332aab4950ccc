// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/MareyStep.h"

#include <cstdint>
#include <vector>

namespace npuscope::query {

// The thresholds of the Marey findings (docs/metrics.md, "Marey view: findings", says why these values).
struct MareyThresholds {
    // Long on every device of a stage: on ≥ stageDeviceFraction of the stage's devices, the op takes ≥ stageRatio ×
    // the median duration of ops of its name across every stage, or ≥ stageStepShare of that device's step span, and
    // ≥ deviceMinNs.
    double stageRatio = 2.0;
    double stageStepShare = 0.10;
    double stageDeviceFraction = 0.9;
    // Long on one device: ≥ deviceRatio × the median of the same op on the stage's other devices and ≥ deviceMinNs.
    double deviceRatio = 1.2;
    int64_t deviceMinNs = 20'000; // 20 µs (stage-wide findings too)
    int minPeers = 2; // the peers' median needs at least this many other devices with the op
    // A slow device: over its compute ops that have peers (at least slowDeviceMinOps; its collectives are short: the
    // others wait for it), Σ duration ÷ Σ the peers' medians ≥ slowDeviceRatio. One op's ratio jitters; the device's
    // compute time against its peers' hardly does.
    double slowDeviceRatio = 1.25;
    int slowDeviceMinOps = 10;
    size_t maxFindings = 500; // per kind, the list keeps the largest; the totals count every finding
};

enum class MareyFindingKind {
    StageWide, // long on (almost) every device of a stage: a fusion or split choice
    OneDevice, // one operator long on one device relative to its stage peers
    SlowDevice, // a device whose operators are long relative to its stage peers as a rule: a slow device
};

struct MareyFinding {
    MareyFindingKind kind = MareyFindingKind::StageWide;
    int stage = 0; // index into MareyStep::stages
    int device = -1; // OneDevice, SlowDevice: index into MareyStep::devices; StageWide: −1
    uint32_t name = 0; // index into MareyStep::names (SlowDevice: its longest op relative to the peers)
    uint32_t occurrence = 0;
    MareyOpKind opKind = MareyOpKind::Compute;
    int64_t durationNs = 0; // OneDevice: on the device; StageWide: median over the stage's devices with the op
    int64_t referenceNs = 0; // OneDevice: the peers' median; StageWide: the median of the name across all stages
    double stepShare = 0; // StageWide: durationNs ÷ the median step span of the stage's devices
    int devicesLong = 0; // StageWide: the stage's devices where the op is long
    int devicesWithOp = 0; // devices of the stage that have the op
    // SlowDevice: durationNs ÷ referenceNs, sums over the compared ops (its compute time against its peers'); the ops
    // compared and how many of them are long (≥ deviceRatio).
    double timeRatio = 0;
    int opsCompared = 0;
    int opsLong = 0;
    int64_t excessNs() const { return durationNs - referenceNs; }
};

struct MareyFindingList {
    // Slow devices (largest median ratio first), stage-wide findings (longest median first), then one-device findings
    // (largest excess over the peers first).
    std::vector<MareyFinding> findings;
    int64_t stageWideTotal = 0; // every StageWide finding, also those left out of the list
    int64_t oneDeviceTotal = 0;
    int64_t slowDeviceTotal = 0;
};

// Findings over a matched MareyStep. Send and receive ops are left out: their duration is mostly waiting for the peer
// stage (the pipeline bubble), not the op's own work. Pure function, any thread.
class MareyFindings {
public:
    static MareyFindingList find(const MareyStep& step, const MareyThresholds& thresholds = {});
};

} // namespace npuscope::query

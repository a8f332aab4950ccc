// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npuscope::query {

// What an operator of the Marey view is (docs/metrics.md, "Marey view").
enum class MareyOpKind : uint8_t {
    Compute, // a kernel on a compute core (AI_CORE, AI_VECTOR_CORE, MIX_*, AI_CPU, ...)
    Communication, // a collective (kernel with accelerator core HCCL / COMMUNICATION, or a comm_op row)
    Send, // a point-to-point send (communication op whose name or type says send)
    Receive, // a point-to-point receive (name or type says receive / recv)
};

// "compute", "communication", "send", "receive".
// "compute", "communication", "send", "receive" (marked QT_TRANSLATE_NOOP("MareyOpKind", ...): the GUI shows it
// translated).
const char* mareyOpKindName(MareyOpKind kind);
inline bool isCommunication(MareyOpKind kind) { return kind != MareyOpKind::Compute; }

// How a device line's times are placed on the axis.
enum class MareyTime {
    Absolute, // epoch ns as recorded
    Aligned, // ns since the device's step start (its first operator's start in the step)
};

// One operator of one device in the step. Times in epoch ns.
struct MareyOp {
    uint32_t name = 0; // index into MareyStep::names
    MareyOpKind kind = MareyOpKind::Compute;
    uint32_t occurrence = 0; // 0-based: this is the occurrence-th op of that name on the device within the step
    int64_t start = 0;
    int64_t end = 0; // start + duration
    // The same operator (same name and occurrence) on the next device of the stage, as an index into that device's
    // ops; −1 when that device has none (or this is the stage's last device).
    int32_t next = -1;
    bool matched = false; // the previous or the next device of the stage has the same operator
    double flops = 0; // the kernel's floating-point operations (kernel.flops); 0 when not recorded
};

// One device (rank) line.
struct MareyDevice {
    int64_t rank = 0;
    int stage = 0; // index into MareyStep::stages
    std::vector<MareyOp> ops; // by start, then end
    int64_t stepStart = 0; // first op's start (0 without ops)
    int64_t stepEnd = 0; // last op end (0 without ops)
    bool hasOps() const { return !ops.empty(); }
    // The offset subtracted from this device's times on the given axis.
    int64_t offset(MareyTime time) const { return time == MareyTime::Aligned ? stepStart : 0; }
};

struct MareyStage {
    int index = 0; // pipeline stage (pp coordinate)
    int firstDevice = 0; // index into MareyStep::devices of its first device; devices of a stage are consecutive
    int deviceCount = 0;
    int64_t unmatchedOps = 0; // ops of this stage's devices drawn without a polygon (docs/metrics.md)
};

// A send joined with the receive it feeds on a neighbouring stage (indexes into MareyStep::devices and their ops).
struct MareyP2p {
    int sendDevice = 0, sendOp = 0;
    int recvDevice = 0, recvOp = 0;
};

// One matched operator of a collapsed stage: the union of its devices' intervals (overlaps merged), ascending.
struct MareyCollapsedOp {
    uint32_t name = 0;
    MareyOpKind kind = MareyOpKind::Compute;
    uint32_t occurrence = 0;
    std::vector<std::pair<int64_t, int64_t>> intervals; // [start, end) on the chosen axis, disjoint, ascending
};

// Every device's operators in one step, devices in stage order (query::MareyQuery). Plain data, any thread.
struct MareyStep {
    std::optional<int64_t> step; // nullopt: every kernel regardless of step
    std::vector<std::string> names; // operator names, referenced by MareyOp::name
    std::vector<MareyDevice> devices; // stage by stage, in the stage's rank order (dp, cp, tp)
    std::vector<MareyStage> stages; // stages with at least one loaded device, by index
    std::vector<MareyP2p> p2p; // by send device, then send op
    int64_t unmatchedOps = 0; // Σ stages' unmatchedOps
    int64_t opCount = 0; // Σ devices' ops
    int64_t unpairedSends = 0; // sends whose receive was not found on a neighbouring stage (no line drawn)

    // [min, max] of the devices' op times on the axis; {0, 0} without ops.
    std::pair<int64_t, int64_t> range(MareyTime time) const;
    // The stage's matched operators (those with the same name and occurrence on at least two of its devices, or on
    // its only device), each with the union of its devices' intervals. Ordered by first start.
    std::vector<MareyCollapsedOp> collapse(int stage, MareyTime time) const;
    // Index into devices of a rank, −1 when absent.
    int deviceOf(int64_t rank) const;
};

} // namespace npuscope::query

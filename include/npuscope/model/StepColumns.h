// SPDX-License-Identifier: Apache-2.0
#pragma once

// The step breakdown columns, defined once: the row field an importer fills, the step_trace / cluster_stage_step
// column the writers insert and the queries select, the step_trace_time.csv header, the analysis.db /
// cluster_analysis.db column, the summary JSON key and the title the views show. The schema (resources/schema.sql)
// is checked against this table by StepColumnsTest; adding a column is one entry here plus its schema line.

#include <array>
#include <cstdint>
#include <optional>

namespace npuscope::model {

// The step_trace_time.csv breakdown columns, in file order, then the four columns of the old MindSpore /
// MindInsight step_trace_raw_{id}_detail_time.csv (iteration trace; see docs/metrics.md).
enum class StepColumn {
    Computing,
    CommunicationNotOverlapped,
    Overlapped,
    Communication,
    Free,
    Stage,
    Bubble,
    CommunicationNotOverlappedExcludeReceive,
    Preparing,
    Total, // total: previous iteration end -> this iteration end
    IterationInterval, // iteration_interval: previous iteration end -> fp start
    FpBp, // fp_and_bp: fp start -> bp end
    Tail, // tail: bp end -> iteration end
};
inline constexpr int kStepColumnCount = 13;

// The durations of one step (ns); nullopt when the source does not write the column (Preparing before 2024, Total ..
// Tail outside the old MindSpore iteration trace). StepTraceRow and ClusterStageRow extend it.
struct StepDurations {
    std::optional<int64_t> computing, communicationNotOverlapped, overlapped, communication, free, stage, bubble,
        communicationNotOverlappedExcludeReceive, preparing;
    std::optional<int64_t> total, iterationInterval, fpBp, tail; // old MindSpore step_trace_raw only
};

struct StepColumnSpec {
    StepColumn column;
    std::optional<int64_t> StepDurations::*field;
    const char* sql; // step_trace (and, unless iterationTrace, cluster_stage_step) column, ns
    const char* title; // step_trace_time.csv header; for the iteration trace columns the views' title
    const char* dbName; // StepTraceTime / ClusterStepTraceTime column of the db exports (µs); nullptr: none
    const char* jsonKey; // summary JSON key (µs)
    const char* shortTitle; // header of the step tables (summary text, Steps view); nullptr: JSON only
    bool iterationTrace; // only the old-generation iteration trace writes it (Total .. Tail)
};

// In StepColumn order (kStepColumns[i].column == StepColumn(i), checked at compile time).
inline constexpr std::array<StepColumnSpec, kStepColumnCount> kStepColumns { {
    { StepColumn::Computing, &StepDurations::computing, "computing_ns", "Computing", "computing", "computing_us",
        "Computing", false },
    { StepColumn::CommunicationNotOverlapped, &StepDurations::communicationNotOverlapped,
        "communication_not_overlapped_ns", "Communication(Not Overlapped)", "communication_not_overlapped",
        "communication_not_overlapped_us", "CommNotOvl", false },
    { StepColumn::Overlapped, &StepDurations::overlapped, "overlapped_ns", "Overlapped", "overlapped", "overlapped_us",
        "Overlapped", false },
    { StepColumn::Communication, &StepDurations::communication, "communication_ns", "Communication", "communication",
        "communication_us", "Comm", false },
    { StepColumn::Free, &StepDurations::free, "free_ns", "Free", "free", "free_us", "Free", false },
    { StepColumn::Stage, &StepDurations::stage, "stage_ns", "Stage", "stage", "stage_us", "Stage", false },
    { StepColumn::Bubble, &StepDurations::bubble, "bubble_ns", "Bubble", "bubble", "bubble_us", "Bubble", false },
    { StepColumn::CommunicationNotOverlappedExcludeReceive, &StepDurations::communicationNotOverlappedExcludeReceive,
        "communication_not_overlapped_exclude_receive_ns", "Communication(Not Overlapped and Exclude Receive)",
        "communication_not_overlapped_and_exclude_receive", "communication_not_overlapped_exclude_receive_us", nullptr,
        false },
    { StepColumn::Preparing, &StepDurations::preparing, "preparing_ns", "Preparing", "preparing", "preparing_us",
        "Preparing", false },
    { StepColumn::Total, &StepDurations::total, "total_ns", "Total", nullptr, "total_us", "Total", true },
    { StepColumn::IterationInterval, &StepDurations::iterationInterval, "iteration_interval_ns", "Iteration interval",
        nullptr, "iteration_interval_us", "Interval", true },
    { StepColumn::FpBp, &StepDurations::fpBp, "fp_bp_ns", "FP+BP", nullptr, "fp_bp_us", "FP+BP", true },
    { StepColumn::Tail, &StepDurations::tail, "tail_ns", "Tail", nullptr, "tail_us", "Tail", true },
} };

// The columns of step_trace_time.csv (and of the stage table): Computing .. Preparing, the first entries.
inline constexpr int kStepTraceFileColumnCount = 9;

constexpr bool stepColumnsInOrder()
{
    for (int i = 0; i < kStepColumnCount; ++i) {
        const auto& c = kStepColumns[static_cast<size_t>(i)];
        if (static_cast<int>(c.column) != i || c.iterationTrace != (i >= kStepTraceFileColumnCount))
            return false;
    }
    return true;
}
static_assert(stepColumnsInOrder(), "kStepColumns: one entry per StepColumn, in order, file columns first");

constexpr const StepColumnSpec& stepColumnSpec(StepColumn c) { return kStepColumns[static_cast<size_t>(c)]; }

} // namespace npuscope::model

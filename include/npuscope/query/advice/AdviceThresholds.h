// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/PipelineQuery.h"

namespace npuscope::query::advice {

// Every threshold the advice rules use, in one place; docs/metrics.md ("Advice rules") gives each one's source.
struct AdviceThresholds {
    // Severity of a finding with an impact (docs/metrics.md, "Impact"): the share of the step time it explains.
    // Critical from a fifth of the step (a cause that large dominates the step: fixing it is the first thing to do),
    // warning from 5 % (above the 2-5 % step-to-step noise of a healthy job, see kDispersionWarning), info below
    // (npuscope).
    static constexpr double kImpactCritical = 0.20;
    static constexpr double kImpactWarning = 0.05;

    // Problem delimitation: (max − min) ÷ mean of a step_trace column over comparable ranks (same stage, same TP
    // position). msprof-analyze advisor's slow rank analysis flags 0.05; npuscope warns from 0.10 (step to step noise
    // of a healthy job reaches 5 %) and calls it critical from 0.25.
    static constexpr double kDispersionWarning = 0.10;
    static constexpr double kDispersionCritical = 0.25;
    // A column whose max − min is below this share of the mean step time is noise, whatever its relative dispersion
    // (Free of 0.07 ms varying by 10 %).
    static constexpr double kDispersionMinShareOfStep = 0.02;
    // Stage imbalance: (max − min) ÷ mean of the stages' mean Computing.
    static constexpr double kStageImbalance = 0.10;

    // Slow rank: the delay the suspect causes must exceed its comparable ranks' median by this share of its summed
    // step time (below it the lateness is noise).
    static constexpr double kSlowRankMinDelayShare = 0.05;
    // ... and its own time outside communication (Computing + Free per step) must exceed its comparable ranks' median
    // by this share of its step time: a rank that arrives late only because it waited for a slow rank in another
    // group (a pipeline passes a slow rank's delay on to its neighbours) is not slow itself (npuscope).
    static constexpr double kSlowRankMinOwnShare = 0.02;
    // Robust z-score (0.6745 (x − median) ÷ MAD) limit for groups too large for the Dixon table (Iglewicz & Hoaglin).
    static constexpr double kRobustZ = 3.5;
    // CANN "Performance Tuning Suggestions": Synchronization Time Ratio Before Transit upper limit.
    static constexpr double kSyncRatio = 0.2;

    // Slow link: below this share of the transport's median bandwidth (msprof-analyze slow link / MindStudio
    // Insight), or a robust z-score below −kRobustZ within (op type, transport, size class).
    static constexpr double kLinkMedianShare = 0.8;
    static constexpr double kLinkCriticalShare = 0.5;
    // Links that moved less than this over the loaded steps are latency-bound: their bandwidth means nothing.
    static constexpr double kLinkMinSizeMb = 1.0;
    // Empirical peak bandwidths (GB/s) from the msprof-analyze / MindStudio Insight tutorials.
    static constexpr double kPeakRdmaGbps = 12.5;
    static constexpr double kPeakHccsGbps = 18.0;
    static constexpr double kPeakPcieGbps = 20.0;

    // CANN "Performance Tuning Suggestions": Wait Time Ratio upper limit.
    static constexpr double kWaitRatio = 0.2;
    // ... a warning only when the wait is at least this share of the rank's step time, else info (npuscope). The
    // healthy real 2-rank torch_npu runs wait up to 6.0 % of their step (level2 rank 1; level1 rank 0 3.8 %), the
    // rank that waits most changing from run to run; a balanced generated cluster waits 5.3 %.
    static constexpr double kWaitMinShareOfStep = 0.10;
    // Missing group ranks: the loaded members of a communication group whose rank list names ranks that were not
    // loaded spend at least this share of the step in the group's collectives neither transferring nor waiting for
    // each other (npuscope: the warning share of the impact).
    static constexpr double kMissingGroupWaitShare = 0.05;
    // msprof-analyze advisor packet.yaml: min_sdma_size 16 MB, min_rdma_size 1 MB, ratios 0.2.
    static constexpr double kSmallSdmaMb = 16.0;
    static constexpr double kSmallRdmaMb = 1.0;
    static constexpr double kSmallPacketShare = 0.2;
    // msprof-analyze advisor rdma_analysis.yaml: min_retransmission_time 4000 ms.
    static constexpr double kRetransmissionMs = 4000.0;
    // Transfers whose size is not a multiple of 512 B; only packages of at least kAlignmentMinBytes count.
    static constexpr double kAlignmentBytes = 512.0;
    static constexpr double kAlignmentMinBytes = 1.0e6;
    static constexpr double kAlignmentShare = 0.1;

    // AI CPU kernels longer than 20 µs (msprof-analyze advisor AICPU issues).
    static constexpr double kAiCpuUs = 20.0;
    // Preparing (data loading before the step's first device task) above this share of the step.
    static constexpr double kPreparingShare = 0.10;
    // input_bound: the queue feeding the device empty in more than this share of its samples (MindInsight's minddata
    // analyser, DEVICE_QUEUE_EMPTY_WARNING_THRESHOLD; query::PipelineQuery::kDeviceQueueEmptyRate).
    static constexpr double kDeviceQueueEmptyRate = PipelineQuery::kDeviceQueueEmptyRate;
    // (max − min) ÷ mean of one rank's step time over its steps (the first left out when there are more than two).
    static constexpr double kStepVariance = 0.20;
    // Pipeline bubble ÷ step time, mean over a stage's ranks.
    static constexpr double kBubbleShare = 0.20;
    // Peak reserved ÷ device memory.
    static constexpr double kMemoryPeak = 0.90;
    static constexpr double kMemoryCritical = 0.97;
    // A rank's FLOP/s below this share of its comparable ranks' median.
    static constexpr double kFlopsLight = 0.8;

    // Timeline rules (only ranks whose timeline is loaded).
    // Idle gaps: device time outside compute and communication longer than this (ms), the longest kIdleGapTop per
    // rank; warning when those gaps add up to kIdleGapShare of the rank's device span (npuscope).
    static constexpr double kIdleGapMs = 1.0;
    static constexpr int kIdleGapTop = 3;
    static constexpr double kIdleGapShare = 0.02;
    // A gap's cause covers at least this share of it (npuscope).
    static constexpr double kGapCauseShare = 0.5;
    // msprof-analyze advisor bandwidth contention analysis: SDMA below 0.8 × the 18 GB/s HCCS baseline while a
    // MatMul runs.
    static constexpr double kContentionSdmaGbps = 14.4;
    // Host- or device-bound collectives: the kCollectiveTop collectives whose start spread over the examined ranks
    // is the largest, from this spread (ms) on.
    static constexpr int kCollectiveTop = 3;
    static constexpr double kCollectiveSpreadMs = 1.0;
    // Model FLOPs utilisation below this share of the chip's peak is a warning (large-model training reaches 0.4 to
    // 0.55: PaLM, Megatron-LM reports).
    static constexpr double kMfuLow = 0.3;
};

} // namespace npuscope::query::advice

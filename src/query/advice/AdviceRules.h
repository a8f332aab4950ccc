// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "AdviceContext.h"

#include <vector>

namespace npuscope::query::advice {

// The rules (docs/metrics.md, "Advice rules"). Each appends its findings.
void delimitationRules(const AdviceContext& ctx, std::vector<Finding>& out); // stage_imbalance, *_dispersion
void slowRankRule(const AdviceContext& ctx, std::vector<Finding>& out); // slow_rank
void slowLinkRule(const AdviceContext& ctx, std::vector<Finding>& out); // slow_link
void communicationRules(const AdviceContext& ctx, std::vector<Finding>& out); // wait_ratio, small_packets,
                                                                              // rdma_retransmission, alignment
void stepRules(const AdviceContext& ctx, std::vector<Finding>& out); // preparing, step_variance, bubble_share
void resourceRules(const AdviceContext& ctx, std::vector<Finding>& out); // memory_peak, flops_light, aicpu_long, mfu
// Ranks whose timeline is imported: idle_gap, collective_bound, sdma_contention, dispatch_chain.
void timelineRules(const AdviceContext& ctx, std::vector<Finding>& out);
// Communication groups whose rank list names ranks that were not loaded: missing_group_ranks.
void missingGroupRanksRule(const AdviceContext& ctx, std::vector<Finding>& out);
// Ranks with a MindSpore data pipeline profile whose device queue runs empty (else Preparing is high): input_bound.
void inputBoundRule(const AdviceContext& ctx, std::vector<Finding>& out);

} // namespace npuscope::query::advice

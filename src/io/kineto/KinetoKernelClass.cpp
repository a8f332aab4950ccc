// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/kineto/KinetoKernelClass.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace npuscope::io {

namespace {

template <std::size_t N> bool hasAny(const std::string& lower, const std::array<std::string_view, N>& words)
{
    return std::any_of(
        words.begin(), words.end(), [&](std::string_view w) { return lower.find(w) != std::string::npos; });
}

} // namespace

std::string_view KinetoKernelClass::ofKernel(std::string_view name)
{
    std::string lower(name);
    std::transform(
        lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    static constexpr std::array<std::string_view, 1> kNcclWords { "nccl" };
    static constexpr std::array<std::string_view, 3> kAttentionWords { "flash", "fmha", "attention" };
    static constexpr std::array<std::string_view, 5> kConvWords { "conv", "fprop", "dgrad", "wgrad", "winograd" };
    static constexpr std::array<std::string_view, 6> kGemmWords { "gemm", "gemv", "matmul", "cublas", "xmma",
        "splitkreduce" };
    // PyTorch's elementwise and reduction templates (at::native::*elementwise_kernel, reduce_kernel), cuDNN batch
    // norm (bn_fw / bn_bw), layout conversions, optimizer updates, embedding, indexing and CUB sort / scan kernels.
    static constexpr std::array<std::string_view, 26> kVectorWords { "elementwise", "reduce", "softmax", "norm",
        "bn_fw", "bn_bw", "multi_tensor_apply", "index", "scatter", "gather", "embedding", "copy", "pool", "nchwtonhwc",
        "nhwctonchw", "sort", "scan", "dropout", "fill", "loss", "upsample", "transpose", "permute", "cumsum", "topk",
        "cub::" };
    if (hasAny(lower, kNcclWords))
        return kNccl;
    if (hasAny(lower, kAttentionWords))
        return kFlashAttention;
    if (hasAny(lower, kConvWords))
        return kConv;
    if (hasAny(lower, kGemmWords))
        return kGemm;
    if (hasAny(lower, kVectorWords))
        return kVector;
    return kUnmapped;
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace npuscope::io {

// The accelerator_core a PyTorch Kineto GPU activity is written with: the GPU counterpart of the Ascend task type,
// so the operator categories (query::coreClassOf) hold GPU and NPU kernels alike. docs/metrics.md, "GPU kernels",
// lists the rules; the first that matches the lower-cased kernel name wins:
//   NCCL                 "nccl"                                                      -> communication
//   GPU_FLASH_ATTENTION  "flash", "fmha", "attention"                                -> MIX (FlashAttention is a
//                                                                                       MIX_AIC task on Ascend)
//   GPU_CONV             "conv", "fprop", "dgrad", "wgrad", "winograd"               -> AI Core (cube)
//   GPU_GEMM             "gemm", "gemv", "matmul", "cublas", "xmma", "splitkreduce"  -> AI Core (cube)
//   GPU_VECTOR           elementwise, reduction, normalisation, indexing, sort/scan  -> AI Vector
//                        kernels (the word list in KinetoKernelClass.cpp)
//   GPU_UNMAPPED         anything else: kept and shown as unmapped, never dropped     -> other
// gpu_memcpy / gpu_memset activities are GPU_MEMCPY / GPU_MEMSET (other). Pure function, any thread.
class KinetoKernelClass {
public:
    static constexpr std::string_view kNccl = "NCCL";
    static constexpr std::string_view kFlashAttention = "GPU_FLASH_ATTENTION";
    static constexpr std::string_view kConv = "GPU_CONV";
    static constexpr std::string_view kGemm = "GPU_GEMM";
    static constexpr std::string_view kVector = "GPU_VECTOR";
    static constexpr std::string_view kUnmapped = "GPU_UNMAPPED";
    static constexpr std::string_view kMemcpy = "GPU_MEMCPY";
    static constexpr std::string_view kMemset = "GPU_MEMSET";

    // The label of a kernel (cat "kernel") by its name.
    static std::string_view ofKernel(std::string_view name);
};

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#include <sys/mman.h>

namespace npuscope::core {

// A std::allocator for the large arrays of an in-memory index (hundreds of thousands of rows, tens of MB): blocks of
// 2 MB and more are 2 MB-aligned and advised as transparent huge pages (madvise MADV_HUGEPAGE), so filling them costs
// one page fault per 2 MB instead of one per 4 KB. On a virtual machine a fault costs microseconds: building the
// communication indexes of a 1,024-rank cluster spent 11-15 % of its time in them. Where the kernel does not do huge
// pages (THP "never") the advice is ignored and this is plain aligned memory. Smaller blocks come from operator new.
template <typename T> class HugePageAllocator {
public:
    using value_type = T;
    static constexpr std::size_t kHugePage = std::size_t(2) << 20;

    HugePageAllocator() noexcept = default;
    template <typename U> HugePageAllocator(const HugePageAllocator<U>&) noexcept { }

    T* allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePage)
            return static_cast<T*>(::operator new(bytes));
        const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        void* p = std::aligned_alloc(kHugePage, rounded);
        if (!p)
            throw std::bad_alloc();
        (void)madvise(p, rounded, MADV_HUGEPAGE); // advice only: failure leaves ordinary pages
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept
    {
        if (n * sizeof(T) < kHugePage)
            ::operator delete(p);
        else
            std::free(p);
    }

    template <typename U> bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

// A vector whose large buffers are huge-page backed.
template <typename T> using HugeVector = std::vector<T, HugePageAllocator<T>>;

} // namespace npuscope::core

#pragma once
/// \file
/// Advice to the operating system about large arrays. A scene of 100,000 bodies fills hundreds
/// of megabytes that are written once, front to back; each 4 KiB page of them costs a page
/// fault, which on a virtual machine can cost 10 µs or more — more than reading the page's
/// share of the scenario. Backing such arrays with 2 MiB transparent huge pages makes that 512
/// times fewer faults, and a solver pass over megabytes of contacts and bodies that many fewer
/// address-translation misses.

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace collide {

/// Asks Linux to back the 2 MiB-aligned extents inside [data, data + bytes) with transparent
/// huge pages (madvise MADV_HUGEPAGE), for memory not yet touched; a hint, so nothing happens
/// when the system has them off, the range holds no whole extent (smaller than 2 MiB) or this
/// is not Linux. Costs one system call; call it right after reserving a large array.
void advise_huge_pages(const void* data, std::size_t bytes);

/// The size of a transparent huge page on x86-64 and arm64 Linux (bytes).
inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

/// Arrays of at least this many bytes are given whole huge pages by LargeAllocator.
inline constexpr std::size_t kLargeArray = std::size_t{512} << 10;

/// A std::allocator that gives an array of at least kLargeArray bytes storage in whole huge
/// pages (its size rounded up to a multiple of kHugePage, aligned to one, advised as huge
/// pages: advise_huge_pages()), so the whole array is huge pages when the system allows them;
/// smaller arrays come from operator new. For the arrays a world refills every step and the
/// solver reads in every pass (its bodies' hot data, contacts, solver rows): a 10,000-body
/// scene's are 0.5–3 MB each. Stateless; equal to every other.
template <class T> struct LargeAllocator {
    using value_type = T;
    LargeAllocator() = default;
    template <class U> LargeAllocator(const LargeAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kLargeArray) return std::allocator<T>().allocate(n);
        const std::size_t whole = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        void* p = std::aligned_alloc(kHugePage, whole);
        if (p == nullptr) throw std::bad_alloc();
        advise_huge_pages(p, whole);
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kLargeArray)
            std::allocator<T>().deallocate(p, n);
        else
            std::free(p);
    }
    template <class U> bool operator==(const LargeAllocator<U>&) const noexcept { return true; }
};

/// A vector whose storage, once it reaches kLargeArray bytes, is whole huge pages (LargeAllocator).
template <class T> using LargeVector = std::vector<T, LargeAllocator<T>>;

} // namespace collide

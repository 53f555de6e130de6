#pragma once
/// \file
/// Advice to the operating system about large arrays. A scene of 100,000 bodies fills hundreds
/// of megabytes that are written once, front to back; each 4 KiB page of them costs a page
/// fault, which on a virtual machine can cost 10 µs or more — more than reading the page's
/// share of the scenario. Backing such arrays with 2 MiB transparent huge pages makes that 512
/// times fewer faults, and a solver pass over megabytes of contacts and bodies that many fewer
/// address-translation misses.

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
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

namespace detail {
/// Set on this thread while resize_for_overwrite() grows an array: LargeAllocator::construct()
/// with no value then leaves the new element unwritten.
inline thread_local bool t_for_overwrite = false;
} // namespace detail

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
    /// A new element with no value: value-initialised, as std::allocator makes it, except
    /// within resize_for_overwrite(), where it is left unwritten.
    template <class U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        if (!detail::t_for_overwrite) std::construct_at(p);
    }
    /// An element from values (copied, moved or built), as std::allocator makes it.
    template <class U, class... Args> void construct(U* p, Args&&... args) {
        std::construct_at(p, std::forward<Args>(args)...);
    }
    template <class U> bool operator==(const LargeAllocator<U>&) const noexcept { return true; }
};

/// A vector whose storage, once it reaches kLargeArray bytes, is whole huge pages (LargeAllocator).
template <class T> using LargeVector = std::vector<T, LargeAllocator<T>>;

/// Makes `v` hold `n` elements without writing the new ones (those past its old size): for an
/// array its caller then writes whole, element by element, often in blocks on several threads
/// (StepThreads::for_blocks()). Value-initialising a grown array writes every new byte on the
/// calling thread first, and for fresh memory that is also where each page is faulted in and
/// zeroed (a 2 MiB huge page at a time); left unwritten, each page is first touched by the
/// block that fills it, on whichever thread takes that block. Reading an element before it is
/// written reads what the memory held. Keeps the old elements (moved when the array grows):
/// clear() it first when they are not wanted.
template <class T> void resize_for_overwrite(LargeVector<T>& v, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                  "only elements that need no constructor to be written over can be left unwritten");
    struct Scope {
        Scope() { detail::t_for_overwrite = true; }
        ~Scope() { detail::t_for_overwrite = false; }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
    } const scope;
    // (Doubled at least, as push_back grows it: resize() after clear() would reserve
    // exactly n, and an array that grows a little every step would move every step.)
    if (n > v.capacity()) v.reserve(std::max(n, 2 * v.capacity()));
    v.resize(n);
}

} // namespace collide

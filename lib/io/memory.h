#pragma once
/// \file
/// Advice to the operating system about large arrays. A scene of 100,000 bodies fills hundreds
/// of megabytes that are written once, front to back; each 4 KiB page of them costs a page
/// fault, which on a virtual machine can cost 10 µs or more — more than reading the page's
/// share of the scenario. Backing such arrays with 2 MiB transparent huge pages makes that 512
/// times fewer faults.

#include <cstddef>

namespace collide {

/// Asks Linux to back the 2 MiB-aligned extents inside [data, data + bytes) with transparent
/// huge pages (madvise MADV_HUGEPAGE), for memory not yet touched; a hint, so nothing happens
/// when the system has them off, the range holds no whole extent (smaller than 2 MiB) or this
/// is not Linux. Costs one system call; call it right after reserving a large array.
void advise_huge_pages(const void* data, std::size_t bytes);

} // namespace collide

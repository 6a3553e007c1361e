#pragma once
// How much memory the runtime may plan for, and overflow-safe element counts, so that sizes too
// large for memory are refused with a message when data are bound (and options checked), before
// anything of that size is allocated, rather than ending in std::bad_alloc (docs/data.md, "Sizes
// too large for memory").
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace pvi {

inline constexpr std::uint64_t kBytesPerElement = sizeof(double);  // every value is stored as 8 bytes

// A memory limit and what it is, for messages: "this machine's memory".
struct MemoryLimit {
  std::uint64_t bytes = 0;
  std::string what;

  // Whether `count` values of kBytesPerElement bytes each would exceed the limit (nullopt
  // counts, which overflowed, always do).
  bool exceededBy(std::optional<std::uint64_t> count) const;
  // "this machine's memory (23.4 GiB)"
  std::string text() const;
};

// The environment variable that sets the limit in place of the machine's memory, in bytes with an
// optional binary suffix: 8589934592, 8G, 8GiB, 512M, 512MiB (K, M, G, T, P; KiB, ..., PiB).
inline constexpr const char* kMemoryLimitVariable = "PVI_MEMORY_LIMIT";

// The limit the runtime plans for: PVI_MEMORY_LIMIT when set, otherwise the physical memory
// (sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGE_SIZE)), or less when the process is confined
// further by its cgroup (memory.max) or an address-space limit (ulimit -v). Throws
// std::invalid_argument when PVI_MEMORY_LIMIT is set but not a size.
MemoryLimit memoryLimit();

// "8GiB" -> 8589934592; nullopt when `text` is not a size (or overflows).
std::optional<std::uint64_t> parseByteSize(const std::string& text);

// a * b, or nullopt when it overflows.
std::optional<std::uint64_t> checkedMultiply(std::uint64_t a, std::uint64_t b);
// The product of `dims` (1 for none; 0 when any is 0, even if the others overflow), or nullopt
// when it overflows: never wrapped.
std::optional<std::uint64_t> checkedProduct(std::span<const std::uint64_t> dims);
// A size as a generated shapes function writes it (a double), or nullopt when it is negative,
// not an integer, not finite or beyond 2^64.
std::optional<std::uint64_t> sizeFromDouble(double d);

// 1234567 -> "1,234,567".
std::string groupedNumber(std::uint64_t n);
// Bytes with a binary unit and 3 significant digits: "703 MiB", "23.4 GiB", "41.5 TiB".
std::string byteSizeText(long double bytes);
// "921 x 100,000 = 92,100,000 elements (703 MiB)"; "100,000 elements (781 KiB)" for one dim,
// "1 element (8 B)" for none; "4,294,967,296 x 4,294,967,296 = more than
// 18,446,744,073,709,551,615 elements" when the count overflows.
std::string elementCountText(std::span<const std::uint64_t> dims);

}  // namespace pvi

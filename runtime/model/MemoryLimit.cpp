#include "runtime/model/MemoryLimit.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace pvi {

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// The number in the first line of a cgroup file, or nullopt for "max", a missing file or text.
std::optional<std::uint64_t> readLimitFile(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  if (line.empty() || !std::isdigit(static_cast<unsigned char>(line[0]))) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(line.c_str(), &end, 10);
  if (errno != 0) return std::nullopt;
  return static_cast<std::uint64_t>(v);
}

// The smallest limit of `file` in the cgroup directory `root` + `path` and its ancestors (a
// cgroup is bound by every ancestor's limit).
std::optional<std::uint64_t> cgroupLimit(const std::string& root, std::string path, const char* file) {
  std::optional<std::uint64_t> least;
  for (;;) {
    if (std::optional<std::uint64_t> v = readLimitFile(root + path + "/" + file); v && (!least || *v < *least))
      least = v;
    if (path.empty() || path == "/") break;
    path = path.substr(0, path.rfind('/'));
  }
  return least;
}

// The memory limit of this process's cgroup (v2 memory.max, v1 memory.limit_in_bytes), if any.
std::optional<std::uint64_t> cgroupMemoryLimit() {
  std::ifstream in("/proc/self/cgroup");
  std::optional<std::uint64_t> least;
  auto take = [&](std::optional<std::uint64_t> v) {
    if (v && (!least || *v < *least)) least = v;
  };
  for (std::string line; std::getline(in, line);) {
    // "0::/path" (v2) or "4:memory:/path" (v1).
    const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (line.compare(0, a, "0") == 0 && controllers.empty()) take(cgroupLimit("/sys/fs/cgroup", path, "memory.max"));
    if (controllers.find("memory") != std::string::npos)
      take(cgroupLimit("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes"));
  }
  return least;
}

}  // namespace

bool MemoryLimit::exceededBy(std::optional<std::uint64_t> count) const {
  return !count || *count > bytes / kBytesPerElement;
}

std::string MemoryLimit::text() const { return what + " (" + byteSizeText(static_cast<long double>(bytes)) + ")"; }

MemoryLimit memoryLimit() {
  if (const char* set = std::getenv(kMemoryLimitVariable); set != nullptr && *set != '\0') {
    std::optional<std::uint64_t> bytes = parseByteSize(set);
    if (!bytes || *bytes == 0)
      throw std::invalid_argument(std::string(kMemoryLimitVariable) + "=" + set +
                                  " is not a memory size (expected bytes, or a number with K, M, G, T or P, e.g. 8G)");
    return {*bytes, std::string("the limit set by ") + kMemoryLimitVariable};
  }
  MemoryLimit limit{kMax, "this machine's memory"};
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && pageSize > 0)
    limit.bytes =
        checkedMultiply(static_cast<std::uint64_t>(pages), static_cast<std::uint64_t>(pageSize)).value_or(kMax);
  if (std::optional<std::uint64_t> c = cgroupMemoryLimit(); c && *c < limit.bytes)
    limit = {*c, "this process's cgroup memory limit"};
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY && r.rlim_cur < limit.bytes)
    limit = {static_cast<std::uint64_t>(r.rlim_cur), "this process's address-space limit (ulimit -v)"};
  return limit;
}

std::optional<std::uint64_t> parseByteSize(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  std::uint64_t n = 0;
  const size_t digits = i;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i)
    if (__builtin_mul_overflow(n, 10, &n) || __builtin_add_overflow(n, static_cast<std::uint64_t>(text[i] - '0'), &n))
      return std::nullopt;
  if (i == digits) return std::nullopt;
  std::string unit;
  for (; i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])); ++i)
    unit += static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i != text.size()) return std::nullopt;
  if (unit.size() == 3 && unit.substr(1) == "IB") unit.resize(1);
  if (unit == "B") unit.clear();
  const std::string units = "KMGTP";
  if (unit.empty()) return n;
  const size_t power = unit.size() == 1 ? units.find(unit[0]) : std::string::npos;
  if (power == std::string::npos) return std::nullopt;
  for (size_t k = 0; k <= power; ++k) {
    const std::optional<std::uint64_t> m = checkedMultiply(n, 1024);
    if (!m) return std::nullopt;
    n = *m;
  }
  return n;
}

std::optional<std::uint64_t> checkedMultiply(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<std::uint64_t> checkedProduct(std::span<const std::uint64_t> dims) {
  for (std::uint64_t d : dims)
    if (d == 0) return 0;
  std::uint64_t n = 1;
  for (std::uint64_t d : dims) {
    const std::optional<std::uint64_t> m = checkedMultiply(n, d);
    if (!m) return std::nullopt;
    n = *m;
  }
  return n;
}

std::optional<std::uint64_t> sizeFromDouble(double d) {
  // 2^64 is exact as a double; every double below it converts exactly.
  if (!(d >= 0.0) || !(d < 18446744073709551616.0) || d != std::floor(d)) return std::nullopt;
  return static_cast<std::uint64_t>(d);
}

std::string groupedNumber(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string byteSizeText(long double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
  size_t u = 0;
  while (bytes >= 1024.0L && u + 1 < std::size(units)) {
    bytes /= 1024.0L;
    ++u;
  }
  char buf[64];
  const int decimals = u == 0 || bytes >= 99.95L ? 0 : bytes >= 9.995L ? 1 : 2;
  std::snprintf(buf, sizeof buf, "%.*Lf %s", decimals, bytes, units[u]);
  return buf;
}

std::string elementCountText(std::span<const std::uint64_t> dims) {
  const std::optional<std::uint64_t> count = checkedProduct(dims);
  std::string s;
  for (size_t k = 0; k < dims.size(); ++k) s += (k ? " x " : "") + groupedNumber(dims[k]);
  if (dims.size() != 1) s += dims.empty() ? "1" : " = ";
  if (!count) return s + "more than " + groupedNumber(kMax) + " elements";
  if (dims.size() > 1) s += groupedNumber(*count);
  s += *count == 1 ? " element" : " elements";
  return s + " (" + byteSizeText(static_cast<long double>(*count) * kBytesPerElement) + ")";
}

}  // namespace pvi

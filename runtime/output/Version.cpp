#include "runtime/output/Version.hpp"

#include <ctime>

namespace pvi::output {

std::string pvicVersion() { return PVIC_VERSION; }

std::string currentUtcDatetime() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &utc);
  return buf;
}

}  // namespace pvi::output

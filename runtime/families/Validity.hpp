#pragma once
// The result of a validity check: empty reason means valid. Checks never throw; conversions that
// need a valid input throw std::invalid_argument carrying the same reason.
#include <string>
#include <utility>

namespace pvi {

struct Validity {
  std::string reason;  // empty when valid; otherwise a human-readable explanation

  bool ok() const { return reason.empty(); }
  explicit operator bool() const { return ok(); }

  static Validity valid() { return {}; }
  static Validity invalid(std::string why) { return Validity{std::move(why)}; }
};

}  // namespace pvi

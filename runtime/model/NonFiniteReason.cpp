#include "runtime/model/NonFiniteReason.hpp"

namespace pvi {

namespace {
thread_local std::string reason;
}  // namespace

const std::string& nonFiniteReason() { return reason; }
void noteNonFiniteReason(std::string r) { reason = std::move(r); }
void clearNonFiniteReason() { reason.clear(); }

}  // namespace pvi

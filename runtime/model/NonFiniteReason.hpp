#pragma once
// Why a log density was not finite. A compiled model notes, on the thread that evaluates it, the
// first statement whose term was -inf, +inf or NaN (and its partition), or the reject that made
// the density zero; a fit that stops at a point where the density is not finite names it.
#include <string>

namespace pvi {

// On this thread: what the first log density that was not finite since clearNonFiniteReason()
// noted (a compiled model notes only when nothing is noted yet), e.g. "the term of 'y ~
// normal(mu, -1);' at 5:3 (site south) is not finite" or "reject (site south): y too large: 20
// (at model.stan:6:20)"; empty when none was, or when the model could not tell.
const std::string& nonFiniteReason();
void noteNonFiniteReason(std::string reason);
void clearNonFiniteReason();

}  // namespace pvi

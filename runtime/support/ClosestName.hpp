#pragma once
// "Did you mean" suggestions: the candidate nearest to a misspelt name by edit distance, shared
// by the compiler (names in a model) and the data loaders (keys in a data file). Header-only, so
// that neither needs the other's libraries.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace pvi {

// The candidate within a small edit distance of `name` (1 for names of up to 3 characters, else
// max(2, length / 3)), or "" when none is. Names shorter than `minLength` get no suggestion
// (among many short names they are noise). Suggestions are a courtesy: very long names and very
// long candidate lists are skipped rather than paid for.
inline std::string closestName(const std::string& name, const std::vector<std::string>& candidates,
                               std::size_t minLength = 3) {
  std::string best;
  constexpr std::size_t kMaxLength = 64, kMaxCandidates = 2000;
  if (name.size() < minLength || name.size() > kMaxLength || candidates.size() > kMaxCandidates) return best;
  std::size_t bestDist = (name.size() < 4 ? 1 : std::max<std::size_t>(2, name.size() / 3)) + 1;  // accepted: below this
  for (const std::string& c : candidates) {
    std::size_t lengthGap = c.size() > name.size() ? c.size() - name.size() : name.size() - c.size();
    if (c.size() > kMaxLength || lengthGap >= bestDist) continue;
    std::vector<std::size_t> row(c.size() + 1);
    for (std::size_t j = 0; j <= c.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= name.size(); ++i) {
      std::size_t diag = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= c.size(); ++j) {
        std::size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (name[i - 1] == c[j - 1] ? 0 : 1)});
        diag = up;
      }
    }
    if (row[c.size()] < bestDist) {
      bestDist = row[c.size()];
      best = c;
    }
  }
  return best;
}

}  // namespace pvi

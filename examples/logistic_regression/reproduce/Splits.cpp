#include "Splits.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace spam {
namespace {

// Fisher-Yates with 53-bit uniforms (std::shuffle's algorithm is implementation-defined).
void shuffle(std::vector<std::size_t>& v, std::mt19937_64& rng) {
  for (std::size_t i = v.size(); i > 1; --i) {
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    std::swap(v[i - 1], v[static_cast<std::size_t>(u * static_cast<double>(i))]);
  }
}

}  // namespace

Split splitA(const std::vector<int>& clientColumn) {
  const int m = *std::max_element(clientColumn.begin(), clientColumn.end());
  Split split(static_cast<std::size_t>(m));
  for (std::size_t i = 0; i < clientColumn.size(); ++i) {
    if (clientColumn[i] < 1) throw std::runtime_error("splitA: client labels start at 1");
    split[static_cast<std::size_t>(clientColumn[i] - 1)].push_back(i);
  }
  for (const auto& rows : split)
    if (rows.empty()) throw std::runtime_error("splitA: a client has no rows");
  return split;
}

Split splitB(const Eigen::VectorXd& labels, const SplitBOptions& o) {
  const std::size_t n = static_cast<std::size_t>(labels.size()), half = o.clients / 2;
  if (o.clients < 2 || o.clients % 2 != 0) throw std::invalid_argument("splitB: an even number of clients");
  const auto nSmall = static_cast<std::size_t>(
      std::floor(static_cast<double>(n) / static_cast<double>(o.clients) * (1.0 - o.sizeImbalance)));
  const auto spamSmall = static_cast<std::size_t>(std::lround(o.smallSpamFraction * static_cast<double>(nSmall)));
  std::vector<std::size_t> spamRows, hamRows;
  for (std::size_t i = 0; i < n; ++i) (labels(static_cast<Eigen::Index>(i)) == 1.0 ? spamRows : hamRows).push_back(i);
  if (spamRows.size() < half * spamSmall || hamRows.size() < half * (nSmall - spamSmall))
    throw std::invalid_argument("splitB: not enough rows of a class for the small clients");

  std::mt19937_64 rng(o.seed);
  shuffle(spamRows, rng);
  shuffle(hamRows, rng);
  Split split(o.clients);
  std::size_t nextSpam = 0, nextHam = 0;
  for (std::size_t k = 0; k < half; ++k) {
    for (std::size_t i = 0; i < spamSmall; ++i) split[k].push_back(spamRows[nextSpam++]);
    for (std::size_t i = spamSmall; i < nSmall; ++i) split[k].push_back(hamRows[nextHam++]);
    std::sort(split[k].begin(), split[k].end());
  }
  std::vector<std::size_t> rest(spamRows.begin() + static_cast<std::ptrdiff_t>(nextSpam), spamRows.end());
  rest.insert(rest.end(), hamRows.begin() + static_cast<std::ptrdiff_t>(nextHam), hamRows.end());
  shuffle(rest, rng);
  std::size_t start = 0;
  for (std::size_t k = 0; k < half; ++k) {
    const std::size_t size = rest.size() / half + (k < rest.size() % half ? 1 : 0);
    split[half + k].assign(rest.begin() + static_cast<std::ptrdiff_t>(start),
                           rest.begin() + static_cast<std::ptrdiff_t>(start + size));
    std::sort(split[half + k].begin(), split[half + k].end());
    start += size;
  }
  return split;
}

std::vector<std::size_t> splitSizes(const Split& split) {
  std::vector<std::size_t> sizes;
  for (const auto& rows : split) sizes.push_back(rows.size());
  return sizes;
}

}  // namespace spam

#pragma once
// The two client splits of the PVI paper's UCI experiment (Ashman et al. 2022, "Partitioned Variational Inference",
// Section 5.1 and Appendix E.1, after Sharma et al. 2019), as row indices into the training rows.
//
//   Split A (homogeneous): the file's client column (368 rows each, 32-42% spam).
//   Split B (inhomogeneous, beta = 0.7): M/2 small clients of floor(0.3 N / M) rows each with a
//     fraction 0.9 of spam (kappa chosen so that eta_small = 0.9), and M/2 large clients holding
//     the rest in near-equal shares. With N = 3680, M = 10: small clients 110 rows (99 spam),
//     large clients 626 rows (~30% spam). Clients 1..M/2 are the small ones.
//     Built from the pooled rows with a fixed seed: spam and non-spam rows are shuffled separately
//     (Fisher-Yates from std::mt19937_64(seed), so the split is the same on every platform), the
//     small clients take theirs from the front, the remaining rows are shuffled together and
//     dealt to the large clients in contiguous blocks.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace spam {

using Split = std::vector<std::vector<std::size_t>>;  // rows of each client, clients in order

Split splitA(const std::vector<int>& clientColumn);

struct SplitBOptions {
  std::size_t clients = 10;        // M (even)
  double sizeImbalance = 0.7;      // beta: N_small = floor(N / M (1 - beta))
  double smallSpamFraction = 0.9;  // eta_small
  std::uint64_t seed = 20190;
};

Split splitB(const Eigen::VectorXd& labels, const SplitBOptions& options = {});

std::vector<std::size_t> splitSizes(const Split& split);

}  // namespace spam

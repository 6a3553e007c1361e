#pragma once
// The Wasserstein-2 barycentre of Gaussians N(m_j, S_j), j = 1..J, with equal weights: the
// Gaussian nu minimising sum_j W2(nu, N(m_j, S_j))^2 (Mallasto and Feragen 2017, Theorem 4), as
// SFVI-Avg averages the silos' q(z) (SFVI paper, section 3.2):
//
//   mean        the average of the means;
//   diagonal    S = (J^-1 sum_j S_j^1/2)^2 (the sds averaged), in closed form;
//   full        the unique positive definite fixed point of S = J^-1 sum_j (S^1/2 S_j S^1/2)^1/2,
//               found by the iteration of Alvarez-Esteban et al. (2016),
//               S <- S^-1/2 (J^-1 sum_j (S^1/2 S_j S^1/2)^1/2)^2 S^-1/2,
//               from S = the average of the S_j, until the relative change is below `tolerance`.
// Throws std::invalid_argument for no inputs, mismatched dimensions or an invalid covariance, and
// std::runtime_error when the iteration does not converge within maxIterations.
#include <cstddef>
#include <vector>

#include "runtime/families/FullGaussianParams.hpp"
#include "runtime/families/MeanFieldGaussianParams.hpp"

namespace pvi {

struct BarycentreOptions {
  double tolerance = 1e-13;
  std::size_t maxIterations = 1000;
};

MeanFieldStandard wassersteinBarycentre(const std::vector<MeanFieldStandard>& qs);
FullStandard wassersteinBarycentre(const std::vector<FullStandard>& qs, const BarycentreOptions& options = {},
                                   std::size_t* iterations = nullptr);

}  // namespace pvi

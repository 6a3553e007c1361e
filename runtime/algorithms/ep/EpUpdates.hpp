#pragma once
// The site updates of EP and of its two variants for sampled moments ("Fearless stochasticity in
// expectation propagation", sections 2-3, Algorithms 1-2):
//
//   theta = eta_0 + sum_j lambda_j                      the approximation's natural parameters
//   p_i(z) ∝ exp((theta - lambda_i / beta_i)^T s(z) + l_i(z) / beta_i)   site i's tilted distribution
//   mu = grad A(theta),  mu_hat_i = E_{p_i}[s(z)]        (here estimated by the caller)
//
//   EP (Algorithm 1, damping alpha):  lambda_i <- lambda_i - alpha (theta - grad A*(mu_hat_i))
//   EP-eta (eq. 11):                  lambda_i <- lambda_i + eps J(mu) (mu_hat_i - mu),
//                                     J = d grad A* / d mu, the Jacobian of mean -> natural at mu
//   EP-mu (eq. 13):                   lambda_i <- grad A*((1 - eps) mu + eps mu_hat_i) - (theta - lambda_i)
//
// EP-eta is natural-gradient descent in the natural parameters of the tilted approximation, so a
// sequence of updates from unbiased estimates of mu_hat_i stays unbiased; EP-mu damps the moments
// rather than the sites. With exact moments all three share EP's fixed point (mu_hat_i = mu for
// every site). Each function returns the new lambda_i; the caller keeps theta = eta_0 + sum and
// refuses an update after which theta is not a distribution.
#include <optional>

#include "runtime/families/Gaussian.hpp"

namespace pvi::algorithms::ep {

enum class Variant { Ep, EpEta, EpMu };
const char* variantName(Variant v);  // "ep", "ep-eta", "ep-mu"

// J(mu) dmu: the directional derivative of mean -> natural at mu (mu a valid distribution).
FullNatural naturalDerivative(const FullMean& mu, const FullMean& dmu);
MeanFieldNatural naturalDerivative(const MeanFieldMean& mu, const MeanFieldMean& dmu);

// The natural parameters of the Gaussian part of site i's tilted distribution: theta - lambda_i / beta_i.
template <class Natural>
Natural tiltedNatural(const Natural& theta, const Natural& lambda, double beta);

// One site's update. `step` is alpha for EP and eps for EP-eta and EP-mu; mu_hat are the tilted
// moments. Throws std::invalid_argument when theta is not a distribution (EP-eta and EP-mu need
// its moments) or when mu_hat is not one (EP and EP-mu map it to natural parameters).
FullNatural updateSite(Variant v, const FullNatural& lambda, const FullNatural& theta, const FullMean& muHat,
                       double step);
MeanFieldNatural updateSite(Variant v, const MeanFieldNatural& lambda, const MeanFieldNatural& theta,
                            const MeanFieldMean& muHat, double step);

// The natural parameters of the Gaussian that n draws (the columns of Z) come from, estimated
// without bias, for plain EP on sampled tilted distributions (grad A*(mu_hat) of the sample
// moments is biased): with the sample mean m and the unbiased sample covariance S, independent
// for Gaussian draws, and E[S^-1] = (n - 1) / (n - D - 2) Sigma^-1 (inverse Wishart), the
// precision estimate is P = (n - D - 2) / (n - 1) S^-1 and eta = (P m, -P / 2). Needs
// n > D + 2 draws (D = 1 per coordinate for the diagonal family); throws std::invalid_argument
// naming both numbers otherwise.
FullNatural unbiasedNatural(const Eigen::MatrixXd& Z);
MeanFieldNatural unbiasedNaturalDiagonal(const Eigen::MatrixXd& Z);

// The smallest eigenvalue of P_theta^{-1/2} P_cavity P_theta^{-1/2} (elementwise ratio for the
// diagonal family): the fraction of the approximation's precision its cavity keeps in the
// direction where it keeps least. 1 for a flat site; 0 or below for an improper cavity (-infinity
// when theta itself is not a distribution).
double cavityMargin(const FullNatural& theta, const FullNatural& cavity);
double cavityMargin(const MeanFieldNatural& theta, const MeanFieldNatural& cavity);

// The eigenvalues of b^{-1/2} a b^{-1/2} (a and b symmetric, b positive definite): how a compares
// with b direction by direction. Nothing when b is not positive definite.
std::optional<Eigen::VectorXd> relativeEigenvalues(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);

}  // namespace pvi::algorithms::ep

#pragma once
// The structured family's conditional over one partition's local latents w (SFVI paper, section
// 3.1; design section 6), with an extension of its covariance:
//
//   q(w | z) = N(mean + C (z - anchor), diag(sd(z)) L L^T diag(sd(z))),
//   log sd(z) = log sd + G (z - anchor),
//
// with L unit-lower-triangular (`unitLower`) or the identity (`unitLower` empty), C the dw x D
// `coupling` (empty: w independent of z, the mean-field locals of plain PVI) and G the dw x D
// `scaleCoupling` (empty: the paper's family, whose conditional covariance is the same for every
// z). G lets a local's spread follow a global scale: in a centred hierarchical model
// a_j ~ N(mu, tau), the posterior sd of a group with little data is proportional to tau, which
// the paper's family cannot express (it then underestimates tau's spread: docs/fitting.md). With
// G the joint (z, w) is no longer Gaussian, but stays reparameterisable with a closed-form
// conditional density and entropy.
//
// A shape (`skew` and `tail`, both dw, only without L) replaces each standardised coordinate
// xi_i ~ N(0, 1) by its sinh-arcsinh transform u_i = T_i(xi_i) (SinhArcsinh.hpp):
//
//   w = mean + C (z - anchor) + sd(z) .* T(xi),
//
// so that a local can be skewed and heavier- or lighter-tailed than a normal. `mean` and `sd` are
// then the location and scale, not w's mean and sd. The reason is a bias of the Gaussian family: a
// local with few observations (a random intercept seen through 4 binary outcomes) has a skewed
// conditional posterior; the reverse KL narrows a Gaussian q(w | z) there, by an amount that
// depends on the globals (less where the prior dominates), and that pulls a global scale towards
// small values. On the Six Cities model that gap's slope over omega is 20 nats per unit for the
// Gaussian family and 0.4 for the sinh-arcsinh one (1-D quadrature per child: docs/fitting.md).
//
// The anchor is the z at which w's location is `mean` and its scales `sd`; the paper anchors at
// the mean m of q(z), and the optimisers re-anchor there (`reanchored`) so that the parameters
// keep their meaning while m moves. Together with q(z) = N(m, S), without a shape (the marginal*
// functions below also give the moments with one):
//
//   w = mean + C (z - anchor) + sd(z) .* (L xi),   xi ~ N(0, I)    (the reparameterisation)
//   E[w] = mean + C (m - anchor),  Cov(w, z) = C S,  Cov(z, w) = S C^T,
//   Var(w) = C S C^T + E[diag(sd(z)) L L^T diag(sd(z))]   (= diag(sd) L L^T diag(sd) without G),
//   H(q(w | z)) = sum log sd(z) + dw/2 log(2 pi e)   (det L = 1), whose mean over q(z) is its
//   value at z = m.
//
// Plain data; `check` says whether the arrays fit together and the sds are positive.
#include <Eigen/Core>

#include "runtime/families/MeanFieldGaussianParams.hpp"
#include "runtime/families/Validity.hpp"

namespace pvi {

struct ConditionalGaussian {
  Eigen::VectorXd mean;           // dw
  Eigen::MatrixXd coupling;       // dw x D, or 0 x 0 (no dependence on z)
  Eigen::VectorXd anchor;         // D, or empty with an empty coupling
  Eigen::VectorXd sd;             // dw, all > 0: the sds at z = anchor
  Eigen::MatrixXd scaleCoupling;  // dw x D (needs a coupling), or 0 x 0 (sds independent of z)
  Eigen::MatrixXd unitLower;      // dw x dw unit lower triangular, or 0 x 0 (the identity)
  Eigen::VectorXd skew;           // dw, or empty (no shape: Gaussian)
  Eigen::VectorXd tail;           // dw, all > 0, with skew

  Eigen::Index dim() const { return mean.size(); }
  bool coupled() const { return coupling.size() > 0; }
  bool scaled() const { return scaleCoupling.size() > 0; }
  bool correlated() const { return unitLower.size() > 0; }
  bool shaped() const { return skew.size() > 0; }

  // w independent of z with N(mean, diag(sd^2)): plain PVI's private q(w).
  static ConditionalGaussian independent(Eigen::VectorXd mean, Eigen::VectorXd sd);
};

// Which parameters a conditional has: the coupling C, the scale coupling G (only with C), a
// unit-lower-triangular L (else L = I), and a sinh-arcsinh shape (only without L).
struct ConditionalShape {
  bool coupled = true;
  bool scaled = true;
  bool correlated = true;
  bool shaped = false;
  bool operator==(const ConditionalShape&) const = default;
};

// The conditional with the given shape that equals q at its anchor: a missing C, G or L becomes
// a zero matrix or the identity (z's dimension `globalDim` sizes C and G); one the shape lacks is
// dropped.
ConditionalGaussian withShape(const ConditionalGaussian& q, ConditionalShape shape, Eigen::Index globalDim);

Validity check(const ConditionalGaussian& q);

// q(w) as a mean-field Gaussian when it is independent of z and uncorrelated; throws
// std::invalid_argument naming `user` otherwise (for optimisers that handle only that case).
MeanFieldStandard independentLocals(const ConditionalGaussian& q, const char* user);
ConditionalGaussian independentConditional(const MeanFieldStandard& q);

// The location mean + C (z - anchor): E[w | z] without a shape.
Eigen::VectorXd conditionalMean(const ConditionalGaussian& q, const Eigen::VectorXd& z);
// sd(z).
Eigen::VectorXd conditionalSd(const ConditionalGaussian& q, const Eigen::VectorXd& z);
// The same distribution anchored at z0: mean becomes E[w | z0] and sd sd(z0); C, G, L unchanged.
ConditionalGaussian reanchored(const ConditionalGaussian& q, const Eigen::VectorXd& z0);
// Column i: a draw of w given z = Z.col(i), with standard normals xi.col(i).
Eigen::MatrixXd conditionalDraws(const ConditionalGaussian& q, const Eigen::MatrixXd& Z, const Eigen::MatrixXd& xi);
// log q(w | z) of column i of W given column i of Z.
Eigen::VectorXd conditionalLogDensity(const ConditionalGaussian& q, const Eigen::MatrixXd& Z, const Eigen::MatrixXd& W);
// H(q(w | z)) at z = anchor; E_q(z)[H(q(w | z))] when q(z)'s mean is the anchor (reanchor first).
double conditionalEntropy(const ConditionalGaussian& q);
// Cov(w | z = anchor): diag(sd) L L^T diag(sd), or diag(sd^2 .* Var u) with a shape.
Eigen::MatrixXd conditionalCovariance(const ConditionalGaussian& q);

// E[w] under q(z) = N(m, S) (or its diagonal `variances`): the location at m without a shape.
Eigen::VectorXd marginalMean(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& S);
Eigen::VectorXd marginalMeanDiagonal(const ConditionalGaussian& q, const Eigen::VectorXd& m,
                                     const Eigen::VectorXd& variances);
// The moments of w under q(z) = N(m, S) (S dense, or its diagonal when `variances` is given).
struct LocalMoments {
  Eigen::VectorXd mean;         // E[w]
  Eigen::MatrixXd covariance;   // Var(w) (dw x dw)
  Eigen::MatrixXd crossGlobal;  // Cov(w, z) = C S (dw x D; empty when uncoupled)
};
LocalMoments marginalMoments(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& S);
LocalMoments marginalMomentsDiagonal(const ConditionalGaussian& q, const Eigen::VectorXd& m,
                                     const Eigen::VectorXd& variances);
// The diagonal of LocalMoments::covariance alone, in O(dw (D + dw)) without a dw x dw matrix.
Eigen::VectorXd marginalVariances(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& S);
Eigen::VectorXd marginalVariancesDiagonal(const ConditionalGaussian& q, const Eigen::VectorXd& m,
                                          const Eigen::VectorXd& variances);

}  // namespace pvi

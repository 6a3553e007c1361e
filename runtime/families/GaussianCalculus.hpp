#pragma once
// The family-specific calculus PVI needs on top of runtime/families, for the full-covariance and
// the mean-field Gaussian over z. Every function is overloaded on the family's parameter types,
// so the PVI templates (instantiated for FullGaussian and MeanFieldGaussian) call them generically.
//
// Notation: q = N(m, S), eta = (eta1, eta2) = (P m, -P/2), mu = (m, M = S + m m^T), and for a
// scalar function f of z, g = E_q[grad f] and H = E_q[hess f]. For the mean-field family every
// matrix in these formulas is diagonal and is stored as the vector of its diagonal.
//
//   likelihood natural parameters   d/dmu E_q[f] = (g - H m, H / 2)
//       the natural parameters of the Gaussian factor matching f's expected gradient and
//       curvature at q: the fixed point of eq. (4) is eta_k = d/dmu E_q[log p(y_k | z)].
//   Fisher product                  C v = d mu / d eta [v],   C = hess A(eta)
//       turns a natural gradient v into the Euclidean gradient with respect to eta: with
//       d mu = (dm, dM), dS = 2 S V2 S, dm = S (v1 + 2 V2 m), dM = dS + dm m^T + m dm^T.
//       (Its result is mean-shaped; it is returned in a natural-parameter struct so that it can
//       be added to eta as a step.)
//   Stein / Price Hessian           E[hess f] = E[S^{-1} (z - m) grad f^T] = L^{-T} E[eps g^T]
//       for z = m + L eps; symmetrised. The mean-field form is E[eps_i g_i] / sd_i.
#include <Eigen/Core>
#include <cstddef>
#include <optional>

#include "runtime/families/Gaussian.hpp"

namespace pvi {

// (a + a^T) / 2, exactly symmetric.
Eigen::MatrixXd symmetricPart(const Eigen::MatrixXd& a);

// Types that differ between the families. Curvature: an expected Hessian, or the cross moment
// E[g eps^T] of a gradient with the standard normal draw (D x D for the full family, the
// diagonal / elementwise product g .* eps as a length-D vector for the mean-field family).
template <class Family>
struct FamilyTraits;

template <>
struct FamilyTraits<FullGaussian> {
  using Curvature = Eigen::MatrixXd;
  using Root = Eigen::MatrixXd;                 // the lower Cholesky factor L of S, z = m + L eps
  static constexpr bool denseCurvature = true;  // a D x D expected Hessian
  static Curvature zeroCurvature(Eigen::Index d) { return Eigen::MatrixXd::Zero(d, d); }
  // N(0, variance I).
  static FullStandard isotropic(Eigen::Index d, double variance) {
    return {Eigen::VectorXd::Zero(d), variance * Eigen::MatrixXd::Identity(d, d)};
  }
  // N(m, S) when the family holds it exactly (always, for this family).
  static std::optional<FullStandard> fromMoments(const Eigen::VectorXd& m, const Eigen::MatrixXd& S) {
    return FullStandard{m, S};
  }
  static FullStandard fromVariances(const Eigen::VectorXd& m, const Eigen::VectorXd& var) {
    return {m, var.asDiagonal()};
  }
  // q's second moments for export: the full covariance (variances left empty).
  static void exportMoments(const FullStandard& q, Eigen::MatrixXd& covariance, Eigen::VectorXd&) { covariance = q.S; }
  // A full expected Hessian as this family's curvature, and one draw's term g eps^T of the cross moment.
  static Curvature curvatureOf(const Eigen::MatrixXd& hess) { return symmetricPart(hess); }
  static void addCross(Curvature& cross, const Eigen::VectorXd& g, const Eigen::VectorXd& eps) {
    cross.noalias() += g * eps.transpose();
  }
  static Curvature outer(const Eigen::VectorXd& g, const Eigen::VectorXd& eps) { return g * eps.transpose(); }
};

template <>
struct FamilyTraits<MeanFieldGaussian> {
  using Curvature = Eigen::VectorXd;
  using Root = Eigen::VectorXd;                  // the standard deviations, z = m + sd .* eps
  static constexpr bool denseCurvature = false;  // its diagonal only
  static Curvature zeroCurvature(Eigen::Index d) { return Eigen::VectorXd::Zero(d); }
  static MeanFieldStandard isotropic(Eigen::Index d, double variance) {
    return {Eigen::VectorXd::Zero(d), Eigen::VectorXd::Constant(d, variance)};
  }
  // N(m, S) only when S is diagonal; std::nullopt when it has correlations this family cannot hold.
  static std::optional<MeanFieldStandard> fromMoments(const Eigen::VectorXd& m, const Eigen::MatrixXd& S) {
    Eigen::MatrixXd offDiagonal = S;
    offDiagonal.diagonal().setZero();
    if (offDiagonal.size() > 0 && offDiagonal.cwiseAbs().maxCoeff() != 0.0) return std::nullopt;
    return MeanFieldStandard{m, S.diagonal()};
  }
  static MeanFieldStandard fromVariances(const Eigen::VectorXd& m, const Eigen::VectorXd& var) { return {m, var}; }
  // q's second moments for export: the variances only (no D x D matrix).
  static void exportMoments(const MeanFieldStandard& q, Eigen::MatrixXd&, Eigen::VectorXd& variances) {
    variances = q.var;
  }
  static Curvature curvatureOf(const Eigen::MatrixXd& hess) { return hess.diagonal(); }
  static void addCross(Curvature& cross, const Eigen::VectorXd& g, const Eigen::VectorXd& eps) {
    cross += g.cwiseProduct(eps);
  }
  static Curvature outer(const Eigen::VectorXd& g, const Eigen::VectorXd& eps) { return g.cwiseProduct(eps); }
};

template <class Family>
using Curvature = typename FamilyTraits<Family>::Curvature;

// ---- Reparameterisation ---------------------------------------------------------------------
// The root L with z = m + L eps: the lower Cholesky factor of S, or the standard deviations.
// Throw std::invalid_argument when q is not a valid distribution.
Eigen::MatrixXd reparamRoot(const FullStandard& q);
Eigen::VectorXd reparamRoot(const MeanFieldStandard& q);
// The same from stable parameters (always valid): the Cholesky factor, or exp(log sd).
Eigen::MatrixXd reparamRoot(const FullStable& q);
Eigen::VectorXd reparamRoot(const MeanFieldStable& q);
// The marginal standard deviations of the coordinates.
Eigen::VectorXd marginalSds(const FullStandard& q);
Eigen::VectorXd marginalSds(const MeanFieldStandard& q);
// Columns z_i = m + L eps_i of a D x n matrix of draws.
Eigen::MatrixXd reparamDraws(const Eigen::VectorXd& m, const Eigen::MatrixXd& L, const Eigen::MatrixXd& eps);
Eigen::MatrixXd reparamDraws(const Eigen::VectorXd& m, const Eigen::VectorXd& sd, const Eigen::MatrixXd& eps);

// ---- Curvature -----------------------------------------------------------------------------
// The cross moment for the Stein Hessian from n >= 2 draws, centred: the sample covariance
// (1 / (n - 1)) sum_i (g_i - gbar)(eps_i - epsbar)^T = n / (n - 1) (cross - gbar epsbar^T), given
// cross = mean_i g_i eps_i^T, gbar = mean_i g_i and epsbar = mean_i eps_i. It has the same
// expectation as cross (E[eps] = 0) without the term gbar epsbar^T, whose noise, of size
// |gbar| / sqrt(n), grows with the mean gradient: far from the optimum it swamps the curvature
// and makes the full-covariance Stein Hessian indefinite (global VI's natural-gradient steps
// diverged on spambase with it). With n < 2 the cross moment is returned as it is.
template <class Family>
Curvature<Family> centredCross(const Curvature<Family>& cross, const Eigen::VectorXd& gbar,
                               const Eigen::VectorXd& epsbar, std::size_t n) {
  if (n < 2) return cross;
  const double nd = static_cast<double>(n);
  return (nd / (nd - 1.0)) * (cross - FamilyTraits<Family>::outer(gbar, epsbar));
}

// The Stein / Price estimate of E[hess f] from the cross moment E[g eps^T] (or g .* eps).
Eigen::MatrixXd steinHessian(const Eigen::MatrixXd& L, const Eigen::MatrixXd& cross);
Eigen::VectorXd steinHessian(const Eigen::VectorXd& sd, const Eigen::VectorXd& crossDiag);
// The exact cross moment implied by an exact expected Hessian: E[g eps^T] = H L (Stein's lemma),
// or H_ii sd_i for the mean-field family (given the full H, only its diagonal is used).
Eigen::MatrixXd crossFromHessian(const Eigen::MatrixXd& L, const Eigen::MatrixXd& hess);
Eigen::VectorXd crossFromHessian(const Eigen::VectorXd& sd, const Eigen::MatrixXd& hess);

// ---- Natural-parameter calculus --------------------------------------------------------------
// d/dmu E_q[f] = (g - H m, H / 2): the natural parameters of the Gaussian factor matched to f.
FullNatural likelihoodNatural(const FullStandard& q, const Eigen::VectorXd& grad, const Eigen::MatrixXd& hess);
MeanFieldNatural likelihoodNatural(const MeanFieldStandard& q, const Eigen::VectorXd& grad,
                                   const Eigen::VectorXd& hessDiag);

// C v = d mu / d eta [v] at q (see the header comment), for a natural-shaped direction v.
FullNatural fisherProduct(const FullStandard& q, const FullNatural& v);
MeanFieldNatural fisherProduct(const MeanFieldStandard& q, const MeanFieldNatural& v);

// Largest absolute entry (0 for an empty set), the scale for relative comparisons.
double maxAbs(const FullNatural& eta);
double maxAbs(const MeanFieldNatural& eta);
// All entries finite.
bool allFinite(const FullNatural& eta);
bool allFinite(const MeanFieldNatural& eta);

// Number of doubles a natural parameter set occupies on the wire: D + D (D + 1) / 2 for the full
// family (eta2 is symmetric: only its lower triangle is sent), 2 D for the mean-field family.
std::size_t payloadDoubles(const FullNatural& eta);
std::size_t payloadDoubles(const MeanFieldNatural& eta);

// ---- Stable parameters as a flat vector (for Adam) -------------------------------------------
// Full: m then the lower triangle of logCholesky column by column; mean-field: m then logSd.
std::size_t stableSize(const FullStable& s);
std::size_t stableSize(const MeanFieldStable& s);
void flattenStable(const FullStable& s, Eigen::Ref<Eigen::VectorXd> out);
void flattenStable(const MeanFieldStable& s, Eigen::Ref<Eigen::VectorXd> out);
void unflattenStable(const Eigen::Ref<const Eigen::VectorXd>& in, FullStable& s);  // s already sized
void unflattenStable(const Eigen::Ref<const Eigen::VectorXd>& in, MeanFieldStable& s);

}  // namespace pvi

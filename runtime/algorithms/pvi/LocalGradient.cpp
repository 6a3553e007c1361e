#include "runtime/algorithms/pvi/LocalGradient.hpp"

#include "runtime/families/Family.hpp"

namespace pvi::algorithms {

FullStable whiteGradientOf(const FullOrigin& o, const FullStable& white, const FullStable& at, const Eigen::MatrixXd& L,
                           const estimation::ExpectedDerivatives<FullGaussian>& e, const FullNatural& cavity) {
  const Eigen::MatrixXd twoEta2 = cavity.eta2 + cavity.eta2.transpose();
  const Eigen::VectorXd linear = cavity.eta1 + twoEta2 * at.m;
  const auto Lt = L.transpose().triangularView<Eigen::Upper>();
  const Eigen::VectorXd dFdm = e.gradZ + linear + twoEta2 * (L * e.epsMean) + Lt.solve(e.epsMean);
  const Eigen::MatrixXd dFdL =
      e.crossZ + linear * e.epsMean.transpose() + twoEta2 * L * e.epsOuter + Lt.solve(e.epsOuter);
  return whiteGradient(o, white, dFdm, dFdL);
}

namespace {

// The mean-field case on plain arrays: G_i = g_i + linear_i + 2 eta2_i sd_i eps_i + eps_i / sd_i,
// with linear = eta1 + 2 eta2 .* m.
MeanFieldStable meanFieldWhiteGradient(const MeanFieldOrigin& o, const MeanFieldStable& white, const Eigen::ArrayXd& sd,
                                       const Eigen::ArrayXd& grad, const Eigen::ArrayXd& cross,
                                       const Eigen::ArrayXd& epsMean, const Eigen::ArrayXd& epsSquare,
                                       const Eigen::ArrayXd& linear, const Eigen::ArrayXd& twoEta2) {
  const Eigen::VectorXd dFdm = (grad + linear + twoEta2 * sd * epsMean + epsMean / sd).matrix();
  const Eigen::VectorXd dFdsd = (cross + linear * epsMean + twoEta2 * sd * epsSquare + epsSquare / sd).matrix();
  return whiteGradient(o, white, dFdm, dFdsd);
}

}  // namespace

MeanFieldStable whiteGradientOf(const MeanFieldOrigin& o, const MeanFieldStable& white, const MeanFieldStable& at,
                                const Eigen::VectorXd& sd, const estimation::ExpectedDerivatives<MeanFieldGaussian>& e,
                                const MeanFieldNatural& cavity) {
  const Eigen::ArrayXd twoEta2 = 2.0 * cavity.eta2.array();
  return meanFieldWhiteGradient(o, white, sd.array(), e.gradZ.array(), e.crossZ.array(), e.epsMean.array(),
                                e.epsOuter.array(), cavity.eta1.array() + twoEta2 * at.m.array(), twoEta2);
}

}  // namespace pvi::algorithms

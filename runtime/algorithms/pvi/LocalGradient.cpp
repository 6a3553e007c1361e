#include "runtime/algorithms/pvi/LocalGradient.hpp"

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

MeanFieldStable whiteGradientOf(const MeanFieldOrigin& o, const MeanFieldStable& white, const MeanFieldStable& at,
                                const Eigen::VectorXd& sd, const estimation::ExpectedDerivatives<MeanFieldGaussian>& e,
                                const MeanFieldNatural& cavity) {
  const Eigen::ArrayXd linear = cavity.eta1.array() + 2.0 * cavity.eta2.array() * at.m.array();
  const Eigen::ArrayXd s = sd.array();
  const Eigen::VectorXd dFdm =
      (e.gradZ.array() + linear + 2.0 * cavity.eta2.array() * s * e.epsMean.array() + e.epsMean.array() / s).matrix();
  const Eigen::VectorXd dFdsd = (e.crossZ.array() + linear * e.epsMean.array() +
                                 2.0 * cavity.eta2.array() * s * e.epsOuter.array() + e.epsOuter.array() / s)
                                    .matrix();
  return whiteGradient(o, white, dFdm, dFdsd);
}

}  // namespace pvi::algorithms

#include "runtime/estimation/Expectations.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "runtime/families/Family.hpp"

namespace pvi::estimation {
namespace {

// What was not finite at a Monte Carlo draw, for the rejected update's message: the value, or
// which block of the gradient (and its first bad coordinate).
std::string notFiniteMessage(double value, const Eigen::VectorXd& gz, const Eigen::VectorXd& gw,
                             const Eigen::VectorXd& gt) {
  const auto firstBad = [](const Eigen::VectorXd& g) {
    for (Eigen::Index i = 0; i < g.size(); ++i)
      if (!std::isfinite(g[i])) return i;
    return Eigen::Index{-1};
  };
  std::ostringstream m;
  m << "at a Monte Carlo draw from q, ";
  if (!std::isfinite(value)) {
    m << "the factor's log density is " << value;
  } else {
    const char* block = "global";
    const Eigen::VectorXd* g = &gz;
    if (firstBad(gz) < 0) g = firstBad(gw) >= 0 ? (block = "local", &gw) : (block = "hyperparameter", &gt);
    const Eigen::Index i = firstBad(*g);
    m << "the gradient of the factor's log density over " << block << " coordinate " << i + 1 << " is " << (*g)[i]
      << " (the log density is " << value << ")";
  }
  m << ": the model is not finite where q puts mass (a scale far from the data's, or data outside the "
       "support of a distribution?)";
  return m.str();
}

Eigen::MatrixXd covarianceOf(const Eigen::MatrixXd& L) {
  const Eigen::MatrixXd lower = L.triangularView<Eigen::Lower>();
  return symmetricPart(lower * lower.transpose());
}
Eigen::MatrixXd covarianceOf(const Eigen::VectorXd& sd) { return sd.cwiseProduct(sd).asDiagonal(); }

}  // namespace

template <class Family>
double ExpectedDerivatives<Family>::valueStandardError() const {
  return samples > 0 ? std::sqrt(valueVariance / static_cast<double>(samples)) : 0.0;
}

template <class Family>
ExpectedDerivatives<Family> estimateDerivatives(const LocalLikelihood& f, const Eigen::VectorXd& m,
                                                const typename FamilyTraits<Family>::Root& root,
                                                const MeanFieldStandard* locals, const EstimationOptions& options,
                                                std::mt19937_64& rng) {
  const auto d = static_cast<Eigen::Index>(f.globalDim());
  const auto dw = static_cast<Eigen::Index>(f.localDim());
  if (m.size() != d || root.rows() != d)
    throw std::invalid_argument("estimateDerivatives: q(z) has dimension " + std::to_string(m.size()) +
                                ", the likelihood " + std::to_string(d));
  if (dw > 0 && (!locals || locals->dim() != dw))
    throw std::invalid_argument("estimateDerivatives: the likelihood has " + std::to_string(dw) +
                                " local latents but q(w) is missing or of another dimension");
  const Eigen::VectorXd sdw = dw > 0 ? Eigen::VectorXd(locals->var.array().sqrt()) : Eigen::VectorXd();

  ExpectedDerivatives<Family> out;
  const std::vector<double>* theta = options.theta;
  if (theta && theta->size() != f.hyperDim())
    throw std::invalid_argument("estimateDerivatives: theta has " + std::to_string(theta->size()) +
                                " entries, the likelihood " + std::to_string(f.hyperDim()));
  if (theta && options.miniBatch)
    throw std::invalid_argument("estimateDerivatives: mini-batches carry no gradient over theta");
  if (options.preferExact && !options.miniBatch && !theta && f.offersExactExpectations()) {
    const Eigen::VectorXd emptyW;
    std::optional<ExactExpectations> exact =
        f.exactExpectations(m, covarianceOf(root), dw > 0 ? locals->m : emptyW, dw > 0 ? locals->var : emptyW);
    if (exact) {
      if (exact->gradZ.size() != d || exact->hessZ.rows() != d || exact->hessZ.cols() != d ||
          exact->gradW.size() != dw || exact->hessWDiag.size() != dw)
        throw std::invalid_argument("exactExpectations returned arrays of the wrong dimensions");
      out.exact = true;
      out.value = exact->value;
      out.gradZ = exact->gradZ;
      out.crossZ = crossFromHessian(root, exact->hessZ);
      out.hessZ = FamilyTraits<Family>::curvatureOf(exact->hessZ);
      out.gradW = exact->gradW;
      out.hessW = exact->hessWDiag;
      out.crossW = exact->hessWDiag.cwiseProduct(sdw);
      out.epsMean = Eigen::VectorXd::Zero(d);
      out.epsOuter = FamilyTraits<Family>::curvatureOf(Eigen::MatrixXd::Identity(d, d));
      out.xiMean = Eigen::VectorXd::Zero(dw);
      out.xiSquare = Eigen::VectorXd::Ones(dw);
      return out;
    }
  }

  const std::size_t n = options.samples;
  if (n == 0) throw std::invalid_argument("estimateDerivatives: zero samples");
  const Eigen::MatrixXd eps = standardNormals(d, static_cast<Eigen::Index>(n), rng);
  const Eigen::MatrixXd xi = standardNormals(dw, static_cast<Eigen::Index>(n), rng);
  const Eigen::MatrixXd z = reparamDraws(m, root, eps);
  Eigen::MatrixXd w;
  if (dw > 0) {
    w = sdw.asDiagonal() * xi;
    w.colwise() += locals->m;
  }

  out.samples = n;
  out.gradZ = Eigen::VectorXd::Zero(d);
  out.crossZ = FamilyTraits<Family>::zeroCurvature(d);
  out.gradW = Eigen::VectorXd::Zero(dw);
  const auto h = static_cast<Eigen::Index>(theta ? theta->size() : 0);
  if (theta) out.gradTheta = Eigen::VectorXd::Zero(h);
  Eigen::VectorXd gt(h);
  out.crossW = Eigen::VectorXd::Zero(dw);
  Eigen::VectorXd gz(d), gw(dw);
  double sum = 0.0, sumSq = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto col = static_cast<Eigen::Index>(i);
    const double* zp = z.col(col).data();  // columns of a column-major matrix are contiguous
    const double* wp = dw > 0 ? w.col(col).data() : nullptr;
    gz.setZero();
    gw.setZero();
    double* gwp = dw > 0 ? gw.data() : nullptr;
    gt.setZero();
    const double v = theta ? f.evaluateAt(theta->data(), zp, wp, gz.data(), gwp, h > 0 ? gt.data() : nullptr)
                     : options.miniBatch ? f.evaluateMiniBatch(*options.miniBatch, zp, wp, gz.data(), gwp)
                                         : f.evaluate(zp, wp, gz.data(), gwp);
    if (!std::isfinite(v) || !gz.allFinite() || !gw.allFinite() || !gt.allFinite())
      throw std::runtime_error(notFiniteMessage(v, gz, gw, gt));
    sum += v;
    sumSq += v * v;
    out.gradZ += gz;
    if (theta) out.gradTheta += gt;
    FamilyTraits<Family>::addCross(out.crossZ, gz, eps.col(col));
    if (dw > 0) {
      out.gradW += gw;
      out.crossW += gw.cwiseProduct(xi.col(col));
    }
  }
  const double nd = static_cast<double>(n);
  out.value = sum / nd;
  out.valueVariance = n > 1 ? std::max(0.0, (sumSq - sum * sum / nd) / (nd - 1.0)) : 0.0;
  out.gradZ /= nd;
  if (theta) out.gradTheta /= nd;
  out.crossZ /= nd;
  out.epsMean = eps.rowwise().mean();
  if constexpr (FamilyTraits<Family>::denseCurvature)
    out.epsOuter = eps * eps.transpose() / nd;  // one matrix product, on every optimiser step
  else
    out.epsOuter = eps.array().square().rowwise().mean().matrix();
  out.xiMean = xi.rowwise().mean();
  out.xiSquare = xi.array().square().rowwise().mean().matrix();
  out.hessZ = steinHessian(root, centredCross<Family>(out.crossZ, out.gradZ, out.epsMean, n));
  if (dw > 0) {
    out.gradW /= nd;
    out.crossW /= nd;
    out.hessW = out.crossW.cwiseQuotient(sdw);
  } else {
    out.hessW = Eigen::VectorXd();
  }
  return out;
}

#define PVI_INSTANTIATE(F)                                                                                       \
  template struct ExpectedDerivatives<F>;                                                                        \
  template ExpectedDerivatives<F> estimateDerivatives<F>(const LocalLikelihood&, const Eigen::VectorXd&,         \
                                                         const FamilyTraits<F>::Root&, const MeanFieldStandard*, \
                                                         const EstimationOptions&, std::mt19937_64&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::estimation

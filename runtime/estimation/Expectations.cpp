#include "runtime/estimation/Expectations.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "runtime/estimation/LaplaceLocals.hpp"
#include "runtime/families/Family.hpp"
#include "runtime/families/SinhArcsinh.hpp"
#include "runtime/model/NonFiniteReason.hpp"

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
  if (!nonFiniteReason().empty()) m << "; there, " << nonFiniteReason();
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

namespace {

// (z - m) for the draws: L eps, or sd .* eps.
Eigen::MatrixXd centredDraws(const Eigen::MatrixXd& L, const Eigen::MatrixXd& eps) {
  return L.triangularView<Eigen::Lower>() * eps;
}
Eigen::MatrixXd centredDraws(const Eigen::VectorXd& sd, const Eigen::MatrixXd& eps) { return sd.asDiagonal() * eps; }
// E[Gw eps^T] L^T (full) or E[Gw eps^T] diag(sd): the coupling's gradient, as (z - m) = L eps.
Eigen::MatrixXd timesRootTransposed(const Eigen::MatrixXd& A, const Eigen::MatrixXd& L) {
  return A * L.triangularView<Eigen::Lower>().transpose();
}
Eigen::MatrixXd timesRootTransposed(const Eigen::MatrixXd& A, const Eigen::VectorXd& sd) { return A * sd.asDiagonal(); }

// Each column of A repeated K times in place: column i K + k is A's column i.
Eigen::MatrixXd repeatColumns(const Eigen::MatrixXd& A, Eigen::Index K) {
  Eigen::MatrixXd out(A.rows(), A.cols() * K);
  for (Eigen::Index i = 0; i < A.cols(); ++i) out.middleCols(i * K, K) = A.col(i).replicate(1, K);
  return out;
}

}  // namespace

template <class Family>
ExpectedDerivatives<Family> estimateDerivatives(const LocalLikelihood& f, const Eigen::VectorXd& m,
                                                const typename FamilyTraits<Family>::Root& root,
                                                const ConditionalGaussian* locals, const EstimationOptions& options,
                                                std::mt19937_64& rng) {
  const auto d = static_cast<Eigen::Index>(f.globalDim());
  const auto dw = static_cast<Eigen::Index>(f.localDim());
  if (m.size() != d || root.rows() != d)
    throw std::invalid_argument("estimateDerivatives: q(z) has dimension " + std::to_string(m.size()) +
                                ", the likelihood " + std::to_string(d));
  if (dw > 0 && (!locals || locals->dim() != dw))
    throw std::invalid_argument("estimateDerivatives: the likelihood has " + std::to_string(dw) +
                                " local latents but q(w | z) is missing or of another dimension");
  if (dw > 0) {
    if (Validity v = check(*locals); !v) throw std::invalid_argument("estimateDerivatives: q(w | z): " + v.reason);
    if (locals->coupled() && locals->coupling.cols() != d)
      throw std::invalid_argument("estimateDerivatives: q(w | z)'s coupling has the wrong number of columns");
  }
  // q(w | z) anchored at m: w = mbar + C (z - m) + s .* (Lw xi).
  const ConditionalGaussian qw = dw > 0 ? reanchored(*locals, m) : ConditionalGaussian{};
  const bool coupled = dw > 0 && qw.coupled();
  const bool scaled = dw > 0 && qw.scaled();
  const bool correlated = dw > 0 && qw.correlated();
  const bool shaped = dw > 0 && qw.shaped();
  const bool independent = dw > 0 && !coupled && !correlated && !shaped;

  ExpectedDerivatives<Family> out;
  const std::vector<double>* theta = options.theta;
  if (theta && theta->size() != f.hyperDim())
    throw std::invalid_argument("estimateDerivatives: theta has " + std::to_string(theta->size()) +
                                " entries, the likelihood " + std::to_string(f.hyperDim()));
  if (theta && options.miniBatch)
    throw std::invalid_argument("estimateDerivatives: mini-batches carry no gradient over theta");
  if (options.preferExact && !options.miniBatch && !theta && f.offersExactExpectations() && (dw == 0 || independent)) {
    const Eigen::VectorXd emptyW;
    const Eigen::VectorXd varW = dw > 0 ? Eigen::VectorXd(qw.sd.array().square()) : emptyW;
    std::optional<ExactExpectations> exact =
        f.exactExpectations(m, covarianceOf(root), dw > 0 ? qw.mean : emptyW, varW);
    if (exact) {
      if (exact->gradZ.size() != d || exact->hessZ.rows() != d || exact->hessZ.cols() != d ||
          exact->gradW.size() != dw || exact->hessWDiag.size() != dw)
        throw std::invalid_argument("exactExpectations returned arrays of the wrong dimensions");
      out.exact = true;
      out.value = exact->value;
      out.gradZ = exact->gradZ;
      out.crossZ = crossFromHessian(root, exact->hessZ);
      out.hessZ = FamilyTraits<Family>::curvatureOf(exact->hessZ);
      out.epsMean = Eigen::VectorXd::Zero(d);
      out.epsOuter = FamilyTraits<Family>::curvatureOf(Eigen::MatrixXd::Identity(d, d));
      if (dw > 0) {
        out.gradW = exact->gradW;
        out.hessW = exact->hessWDiag;
        // E[(gw + xi / s) .* s xi] = s .* diag E[hess_ww f] .* s / s + 1 / s, with E[xi] = 0, E[xi^2] = 1.
        out.local.mean = exact->gradW;
        out.local.sd = exact->hessWDiag.cwiseProduct(qw.sd) + qw.sd.cwiseInverse();
      }
      return out;
    }
  }

  // K draws of w per draw of z (importance-weighted locals); below, eps repeats each of its n
  // columns K times, so that every formula runs over the n K pairs (z, w).
  const auto K = static_cast<Eigen::Index>(dw > 0 ? std::max<std::size_t>(options.innerDraws, 1) : 1);
  const std::size_t n = options.eps  ? static_cast<std::size_t>(options.eps->cols())
                        : options.xi ? static_cast<std::size_t>(options.xi->cols() / K)
                                     : options.samples;
  if (n == 0) throw std::invalid_argument("estimateDerivatives: zero samples");
  if ((options.eps && options.eps->rows() != d) || (options.xi && options.xi->rows() != dw) ||
      (options.xi && options.xi->cols() != static_cast<Eigen::Index>(n) * K))
    throw std::invalid_argument("estimateDerivatives: the given standard normals have the wrong shape");
  const Eigen::MatrixXd outerEps =
      options.eps ? *options.eps : standardNormals(d, static_cast<Eigen::Index>(n), rng);
  const Eigen::MatrixXd xi =
      options.xi ? *options.xi : standardNormals(dw, static_cast<Eigen::Index>(n) * K, rng);
  const Eigen::MatrixXd eps = K > 1 ? repeatColumns(outerEps, K) : outerEps;
  const std::size_t draws = static_cast<std::size_t>(eps.cols());  // n K
  const Eigen::MatrixXd centred = centredDraws(root, eps);
  Eigen::MatrixXd z = centred;
  z.colwise() += m;
  // Per draw: sdz = sd(z) = s .* exp(G (z - m)), noise = sdz .* (Lw xi), w = mbar + C (z - m) + noise,
  // and r = diag(1 / sdz) Lw^-T xi, the gradient of -log q(w | z) over w at the draw. With a shape,
  // noise = sdz .* T(xi) and r = h'(T(xi)) / sdz with h = -log of u's density (SinhArcsinh.hpp): every
  // formula below holds for any elementwise h (d(-log q)/dz = G^T (1 - noise .* r) - C^T r still).
  Eigen::MatrixXd w, noise, r, sdz, shapeOverSkew, shapeOverLogTail;
  if (dw > 0) {
    sdz = qw.sd.replicate(1, static_cast<Eigen::Index>(draws));
    if (scaled) sdz.array() *= (qw.scaleCoupling * centred).array().exp();
    if (shaped) {  // u = T(xi), with its score and derivatives for later
      noise.resize(dw, xi.cols());
      r.resize(dw, xi.cols());
      shapeOverSkew.resize(dw, xi.cols());
      shapeOverLogTail.resize(dw, xi.cols());
      for (Eigen::Index j = 0; j < xi.cols(); ++j)
        for (Eigen::Index k = 0; k < dw; ++k) {
          const sinh_arcsinh::Point p = sinh_arcsinh::at(xi(k, j), qw.skew[k], qw.tail[k]);
          noise(k, j) = p.u;
          r(k, j) = p.score;
          shapeOverSkew(k, j) = p.overSkew;
          shapeOverLogTail(k, j) = p.overLogTail;
        }
    } else {
      noise = correlated ? Eigen::MatrixXd(qw.unitLower.triangularView<Eigen::UnitLower>() * xi) : xi;
    }
    noise.array() *= sdz.array();
    w = noise;
    w.colwise() += qw.mean;
    if (coupled) w.noalias() += qw.coupling * centred;
    if (!shaped) r = xi;
    if (correlated) qw.unitLower.triangularView<Eigen::UnitLower>().transpose().solveInPlace(r);
    r.array() /= sdz.array();
  }

  const auto h = static_cast<Eigen::Index>(theta ? theta->size() : 0);
  // f, or f at theta, or on the mini-batch: the one evaluation every draw goes through.
  const auto evaluateF = [&](const double* zp, const double* wp, double* gzp, double* gwp, double* gtp) {
    return theta ? f.evaluateAt(theta->data(), zp, wp, gzp, gwp, gtp)
           : options.miniBatch ? f.evaluateMiniBatch(*options.miniBatch, zp, wp, gzp, gwp)
                               : f.evaluate(zp, wp, gzp, gwp);
  };
  // Laplace-proposed locals: each z's K columns of w redrawn from its Laplace proposal, with the
  // proposal's log density per column and, per z, grad_w f and diag H at q(w | z)'s mean.
  const bool laplace = dw > 0 && options.laplaceLocals;
  Eigen::VectorXd logProposal;
  Eigen::MatrixXd startGrad, startCurv;
  if (laplace) {
    logProposal.resize(static_cast<Eigen::Index>(draws));
    startGrad.resize(dw, static_cast<Eigen::Index>(n));
    startCurv.resize(dw, static_cast<Eigen::Index>(n));
    std::vector<double> scratchZ(static_cast<std::size_t>(d)), scratchT(static_cast<std::size_t>(h));
    for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(n); ++i) {
      const Eigen::Index c0 = i * K;
      const double* zp = z.col(c0).data();
      const LaplaceProposal p = laplaceProposal(
          [&](const double* wp, double* gwp) {
            return evaluateF(zp, wp, scratchZ.data(), gwp, h > 0 ? scratchT.data() : nullptr);
          },
          conditionalMean(qw, z.col(c0)), sdz.col(c0));
      startGrad.col(i) = p.startGradient;
      startCurv.col(i) = p.startCurvature;
      for (Eigen::Index k = 0; k < K; ++k) {
        w.col(c0 + k) = laplaceDraw(p, xi.col(c0 + k));
        logProposal[c0 + k] = laplaceLogDensity(p, xi.col(c0 + k));
      }
    }
  }

  out.samples = n;
  const bool weighted = K > 1 || laplace;
  // Per draw, with importance-weighted locals: grad_z f, the total derivative along (z, w(z)), grad_theta f.
  Eigen::MatrixXd drawGz, drawTotal, drawGt;
  if (weighted) {
    drawGz.resize(d, static_cast<Eigen::Index>(draws));
    drawTotal.resize(d, static_cast<Eigen::Index>(draws));
    drawGt.resize(theta ? static_cast<Eigen::Index>(theta->size()) : 0, static_cast<Eigen::Index>(draws));
  }
  out.gradZ = Eigen::VectorXd::Zero(d);
  out.crossZ = FamilyTraits<Family>::zeroCurvature(d);
  if (theta) out.gradTheta = Eigen::VectorXd::Zero(h);
  Eigen::VectorXd gt(h);
  if (options.keepDrawCross && !weighted) out.drawCross.resize(d, static_cast<Eigen::Index>(n));
  Eigen::MatrixXd gradW(dw, static_cast<Eigen::Index>(draws));  // Gw = gw + r per draw
  Eigen::VectorXd gz(d), gw(dw), total(d), gradM(d);
  double sum = 0.0, sumSq = 0.0;
  out.drawValues.resize(static_cast<Eigen::Index>(draws));
  for (std::size_t i = 0; i < draws; ++i) {
    const auto col = static_cast<Eigen::Index>(i);
    const double* zp = z.col(col).data();  // columns of a column-major matrix are contiguous
    const double* wp = dw > 0 ? w.col(col).data() : nullptr;
    gz.setZero();
    gw.setZero();
    double* gwp = dw > 0 ? gw.data() : nullptr;
    gt.setZero();
    clearNonFiniteReason();  // what notFiniteMessage says is of this draw
    const double v = evaluateF(zp, wp, gz.data(), gwp, h > 0 ? gt.data() : nullptr);
    if (!std::isfinite(v) || !gz.allFinite() || !gw.allFinite() || !gt.allFinite())
      throw std::runtime_error(notFiniteMessage(v, gz, gw, gt));
    sum += v;
    sumSq += v * v;
    out.drawValues[col] = v;
    if (weighted) {
      drawGz.col(col) = gz;
      if (theta) drawGt.col(col) = gt;
    }
    if (theta && !weighted) out.gradTheta += gt;
    if (coupled && !laplace) {
      // d/dm: gz + d(-log q(w | z))/dz = gz - C^T r + G^T (1 - noise .* r);
      // d/dL: (gz + (C + diag(noise) G)^T (gw + r)) eps^T = (gz + C^T gw + G^T (1 + noise .* gw)) eps^T.
      gradM = gz;
      gradM.noalias() -= qw.coupling.transpose() * r.col(col);
      total = gz;
      total.noalias() += qw.coupling.transpose() * gw;
      if (scaled) {
        const Eigen::VectorXd nr = noise.col(col).cwiseProduct(r.col(col));
        const Eigen::VectorXd ng = noise.col(col).cwiseProduct(gw);
        gradM.noalias() += qw.scaleCoupling.transpose() * (Eigen::VectorXd::Ones(dw) - nr);
        total.noalias() += qw.scaleCoupling.transpose() * (Eigen::VectorXd::Ones(dw) + ng);
      }
      if (weighted) {
        drawTotal.col(col) = total;
      } else {
        out.gradZ += gradM;
        FamilyTraits<Family>::addCross(out.crossZ, total, eps.col(col));
        if (options.keepDrawCross) out.drawCross.col(col) = total;
      }
    } else if (weighted) {
      drawTotal.col(col) = gz;
    } else {
      out.gradZ += gz;
      FamilyTraits<Family>::addCross(out.crossZ, gz, eps.col(col));
      if (options.keepDrawCross) out.drawCross.col(col) = gz;
    }
    if (dw > 0) gradW.col(col) = gw + r.col(col);
  }
  const double nd = static_cast<double>(n);
  if (weighted) {
    // l = f - log q(w | z) per draw; within each z, the self-normalised weights a of its K draws.
    Eigen::VectorXd l;
    if (laplace) {
      l = out.drawValues - logProposal;
    } else {  // - log q(w | z) at each draw
      l = out.drawValues + sdz.array().log().colwise().sum().transpose().matrix() +
          0.5 * xi.array().square().colwise().sum().transpose().matrix();
      l.array() += 0.5 * static_cast<double>(dw) * std::log(2.0 * std::numbers::pi);
      if (shaped)
        for (Eigen::Index j = 0; j < xi.cols(); ++j)
          for (Eigen::Index k = 0; k < dw; ++k) l[j] += sinh_arcsinh::logDerivative(xi(k, j), qw.skew[k], qw.tail[k]);
    }
    Eigen::VectorXd a(l.size()), values(static_cast<Eigen::Index>(n));
    for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(n); ++i) {
      const auto li = l.segment(i * K, K);
      const double top = li.maxCoeff();
      a.segment(i * K, K) = (li.array() - top).exp().matrix();
      const double total = a.segment(i * K, K).sum();
      a.segment(i * K, K) /= total;
      values[i] = top + std::log(total / static_cast<double>(K));
    }
    if (!values.allFinite())
      throw std::runtime_error("at a Monte Carlo draw from q, the importance-weighted term is not finite");
    out.drawValues = values;
    out.value = values.mean();
    out.valueVariance = n > 1 ? (values.array() - out.value).square().sum() / (nd - 1.0) : 0.0;
    out.gradZ = drawGz * a / nd;
    if (theta) out.gradTheta = drawGt * a / nd;
    if (options.keepDrawCross) out.drawCross.resize(d, static_cast<Eigen::Index>(n));
    for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(n); ++i) {
      const Eigen::VectorXd t = drawTotal.middleCols(i * K, K) * a.segment(i * K, K);
      FamilyTraits<Family>::addCross(out.crossZ, t, outerEps.col(i));
      if (options.keepDrawCross) out.drawCross.col(i) = t;
    }
    out.crossZ /= nd;
    // The doubly reparameterised gradient over q(w | z): Gw weighted by K a^2, averaged over all n K draws.
    if (!laplace) gradW.array().rowwise() *= (static_cast<double>(K) * a.array().square()).transpose();
  } else {
    out.value = sum / nd;
    out.valueVariance = n > 1 ? std::max(0.0, (sumSq - sum * sum / nd) / (nd - 1.0)) : 0.0;
    out.gradZ /= nd;
    if (theta) out.gradTheta /= nd;
    out.crossZ /= nd;
  }
  out.epsMean = outerEps.rowwise().mean();
  if constexpr (FamilyTraits<Family>::denseCurvature)
    out.epsOuter = outerEps * outerEps.transpose() / nd;  // one matrix product, on every optimiser step
  else
    out.epsOuter = outerEps.array().square().rowwise().mean().matrix();
  out.hessZ = steinHessian(root, centredCross<Family>(out.crossZ, out.gradZ, out.epsMean, n));
  const double nl = static_cast<double>(draws);  // the locals' means run over every (z, w) pair
  if (laplace) {
    // The second-order expansion's gradient (see the header); the other parameters stay.
    out.local.mean = startGrad.rowwise().mean();
    // Over the sd: H_kk s_k + 1 / s_k where the curvature there is negative; elsewhere the
    // expansion has no maximum over s_k, and that draw gives no gradient (s_k would only grow).
    out.local.sd = Eigen::VectorXd::Zero(dw);
    for (Eigen::Index i = 0; i < startCurv.cols(); ++i)
      for (Eigen::Index k = 0; k < dw; ++k)
        if (const double c = startCurv(k, i); std::isfinite(c) && c < 0.0)
          out.local.sd[k] += (c * qw.sd[k] + 1.0 / qw.sd[k]) / nd;
    if (coupled) out.local.coupling = timesRootTransposed(startGrad * outerEps.transpose() / nd, root);
    if (scaled) out.local.scaleCoupling = Eigen::MatrixXd::Zero(qw.scaleCoupling.rows(), qw.scaleCoupling.cols());
    if (shaped) {
      out.local.skew = Eigen::VectorXd::Zero(dw);
      out.local.logTail = Eigen::VectorXd::Zero(dw);
    }
    if (correlated) out.local.unitLower = Eigen::MatrixXd::Zero(dw, dw);
  } else if (dw > 0) {
    out.local.mean = gradW.rowwise().mean();
    out.local.sd = (gradW.array() * noise.array()).rowwise().mean().matrix().cwiseQuotient(qw.sd);
    if (coupled) out.local.coupling = timesRootTransposed(gradW * eps.transpose() / nl, root);
    if (scaled) {
      const Eigen::MatrixXd gn = (gradW.array() * noise.array()).matrix();
      out.local.scaleCoupling = timesRootTransposed(gn * eps.transpose() / nl, root);
    }
    if (shaped) {  // dw/dskew = sdz .* dT/dskew, and likewise for log tail
      const Eigen::ArrayXXd g = gradW.array() * sdz.array();
      out.local.skew = (g * shapeOverSkew.array()).rowwise().mean().matrix();
      out.local.logTail = (g * shapeOverLogTail.array()).rowwise().mean().matrix();
    }
    if (correlated) {
      out.local.unitLower = (sdz.array() * gradW.array()).matrix() * xi.transpose() / nl;
      out.local.unitLower.template triangularView<Eigen::Upper>().setZero();
    }
    if (independent && !weighted) {
      // Without r (the entropy's part): E[gw] and, by Stein, diag E[hess_ww f] = E[gw .* xi] / s.
      const Eigen::MatrixXd g = gradW - r;
      out.gradW = g.rowwise().mean();
      out.hessW = (g.array() * xi.array()).rowwise().mean().matrix().cwiseQuotient(qw.sd);
    }
  }
  return out;
}

#define PVI_INSTANTIATE(F)                                                                                         \
  template struct ExpectedDerivatives<F>;                                                                          \
  template ExpectedDerivatives<F> estimateDerivatives<F>(const LocalLikelihood&, const Eigen::VectorXd&,           \
                                                         const FamilyTraits<F>::Root&, const ConditionalGaussian*, \
                                                         const EstimationOptions&, std::mt19937_64&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::estimation

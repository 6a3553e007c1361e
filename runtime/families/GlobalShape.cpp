#include "runtime/families/GlobalShape.hpp"

#include "runtime/families/SinhArcsinh.hpp"

namespace pvi {

ShapedDraws shapedDraws(const GlobalShape& shape, const Eigen::MatrixXd& eps) {
  ShapedDraws out{eps, eps, Eigen::MatrixXd::Zero(eps.rows(), eps.cols()),
                  Eigen::MatrixXd::Zero(eps.rows(), eps.cols())};
  if (shape.empty()) return out;
  for (Eigen::Index j = 0; j < eps.cols(); ++j)
    for (Eigen::Index k = 0; k < eps.rows(); ++k) {
      const sinh_arcsinh::Point p = sinh_arcsinh::at(eps(k, j), shape.skew[k], shape.tail[k]);
      out.u(k, j) = p.u;
      out.score(k, j) = p.score;
      out.overSkew(k, j) = p.overSkew;
      out.overLogTail(k, j) = p.overLogTail;
    }
  return out;
}

Eigen::VectorXd logSlopeColumns(const GlobalShape& shape, const Eigen::MatrixXd& eps) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(eps.cols());
  if (shape.empty()) return out;
  for (Eigen::Index j = 0; j < eps.cols(); ++j)
    for (Eigen::Index k = 0; k < eps.rows(); ++k)
      out[j] += sinh_arcsinh::logDerivative(eps(k, j), shape.skew[k], shape.tail[k]);
  return out;
}

double shapeEntropy(const GlobalShape& shape) {
  double h = 0.0;
  for (Eigen::Index k = 0; k < shape.skew.size(); ++k)
    h += sinh_arcsinh::moments(shape.skew[k], shape.tail[k]).expectedLogSlope;
  return h;
}

Eigen::VectorXd shapeMeans(const GlobalShape& shape, Eigen::Index d) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(d);
  for (Eigen::Index k = 0; k < shape.skew.size(); ++k)
    out[k] = sinh_arcsinh::moments(shape.skew[k], shape.tail[k]).mean;
  return out;
}

Eigen::VectorXd shapeVariances(const GlobalShape& shape, Eigen::Index d) {
  Eigen::VectorXd out = Eigen::VectorXd::Ones(d);
  for (Eigen::Index k = 0; k < shape.skew.size(); ++k)
    out[k] = sinh_arcsinh::moments(shape.skew[k], shape.tail[k]).variance;
  return out;
}

}  // namespace pvi

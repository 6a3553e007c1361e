// student_t_lcdf and student_t_lccdf (y | nu, mu, sigma): values and gradients. The CDF of
// z = (y - mu) / sigma is Boost's (an incomplete beta function); its derivative in z is the
// density. Its derivative in nu has no closed form: it is the Richardson-extrapolated central
// difference of the log CDF in nu (cdf_support.hpp), computed only when nu needs a gradient.
#include <boost/math/distributions/students_t.hpp>

#include "stdlib/kernels/distributions/cdf_support.hpp"
#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

namespace {
using StudentT = boost::math::students_t_distribution<double, BoostPolicy>;

// log F(z; nu), from the tail where F is small (all the Richardson steps in nu need).
double studentLogCdfValue(const StudentT& d, double z) {
  return z > 0 ? std::log1p(-boost::math::cdf(boost::math::complement(d, z))) : std::log(boost::math::cdf(d, z));
}

// log F(z; nu) and its derivative in z, the density over F.
LogCdf studentLogCdf(double z, double nu) {
  const StudentT d(nu);
  return {studentLogCdfValue(d, z), boost::math::pdf(d, z) / boost::math::cdf(d, z)};
}

double studentTLogCdf(bool complement, double adj, int64_t n, const double* y, int64_t s_y, const double* nu,
                      int64_t s_nu, const double* mu, int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y,
                      double* g_nu, double* g_mu, double* g_sigma) {
  double lp = 0.0;
  const double sign = complement ? -1.0 : 1.0;  // log(1 - F(z)) = log F(-z)
  for (int64_t i = 0; i < n; ++i) {
    const double yi = y[i * s_y], ni = nu[i * s_nu], mi = mu[i * s_mu], si = sigma[i * s_sigma];
    if (!positiveFinite(si) || !positiveFinite(ni) || !isFinite(yi) || !isFinite(mi)) return -INFINITY;
    const double inv = 1.0 / si, z = (yi - mi) * inv;
    const LogCdf c = studentLogCdf(sign * z, ni);
    lp += c.value;
    if (!std::isfinite(c.value)) continue;  // probability 0 (an underflowed tail): no gradient
    const double d = adj * sign * c.slope * inv;
    if (g_y) g_y[i * s_y] += d;
    if (g_mu) g_mu[i * s_mu] -= d;
    if (g_sigma) g_sigma[i * s_sigma] -= d * z;
    if (g_nu && adj != 0.0)
      g_nu[i * s_nu] += adj * richardsonDerivative([&](double v) { return studentLogCdfValue(StudentT(v), sign * z); }, ni);
  }
  return lp;
}
}  // namespace

extern "C" double pvi_student_t_lcdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* nu,
                                          int64_t s_nu, const double* mu, int64_t s_mu, const double* sigma,
                                          int64_t s_sigma, double* g_y, double* g_nu, double* g_mu, double* g_sigma) {
  return studentTLogCdf(false, adj, n, y, s_y, nu, s_nu, mu, s_mu, sigma, s_sigma, g_y, g_nu, g_mu, g_sigma);
}
extern "C" double pvi_student_t_lcdf(int64_t n, const double* y, int64_t s_y, const double* nu, int64_t s_nu,
                                     const double* mu, int64_t s_mu, const double* sigma, int64_t s_sigma) {
  return studentTLogCdf(false, 0.0, n, y, s_y, nu, s_nu, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr, nullptr);
}
extern "C" double pvi_student_t_lccdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* nu,
                                           int64_t s_nu, const double* mu, int64_t s_mu, const double* sigma,
                                           int64_t s_sigma, double* g_y, double* g_nu, double* g_mu, double* g_sigma) {
  return studentTLogCdf(true, adj, n, y, s_y, nu, s_nu, mu, s_mu, sigma, s_sigma, g_y, g_nu, g_mu, g_sigma);
}
extern "C" double pvi_student_t_lccdf(int64_t n, const double* y, int64_t s_y, const double* nu, int64_t s_nu,
                                      const double* mu, int64_t s_mu, const double* sigma, int64_t s_sigma) {
  return studentTLogCdf(true, 0.0, n, y, s_y, nu, s_nu, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr, nullptr);
}

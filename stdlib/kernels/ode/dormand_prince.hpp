#pragma once
// The Dormand-Prince 5(4) pair (Hairer, Norsett and Wanner, Solving ODEs I, II.5) with adaptive
// steps, for x' = F(t, x) of any dimension: the solver behind pvi_integrate_ode (ode.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace pvi::kern {

enum class OdeStatus { Ok, TooManySteps, StepUnderflow, Failed };

// Solves from (t0, x) to each of the output times, calling report(j, x) at ts[j]; x (dim
// elements) holds the initial state and, at return, the last one; work: 9 * dim doubles. F(t, x, dx)
// returns 0 or a status to stop with (then Failed, and *fStatus holds it). The error of a step
// is the largest |err_i| / (atol + rtol * max(|x_i|, |x_new_i|)); a step is accepted when it is
// at most 1. max_steps bounds the attempted steps between two output times.
template <class Deriv, class Report>
OdeStatus dormandPrince(int64_t dim, double t0, double* state, double* work, int64_t nt, const double* ts, double rtol,
                        double atol, int64_t max_steps, Deriv&& F, Report&& report, int64_t* fStatus) {
  static constexpr double a21 = 1.0 / 5, a31 = 3.0 / 40, a32 = 9.0 / 40, a41 = 44.0 / 45, a42 = -56.0 / 15,
                          a43 = 32.0 / 9, a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561,
                          a54 = -212.0 / 729, a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247,
                          a64 = 49.0 / 176, a65 = -5103.0 / 18656, b1 = 35.0 / 384, b3 = 500.0 / 1113,
                          b4 = 125.0 / 192, b5 = -2187.0 / 6784, b6 = 11.0 / 84, e1 = 71.0 / 57600,
                          e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200, e6 = 22.0 / 525,
                          e7 = -1.0 / 40, c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
  const auto n = static_cast<size_t>(dim);
  double *k1 = work, *k2 = work + n, *k3 = work + 2 * n, *k4 = work + 3 * n, *k5 = work + 4 * n,
         *k6 = work + 5 * n, *k7 = work + 6 * n, *xs = work + 7 * n, *xn = work + 8 * n;
  // x: the current state, in `state` or in the work area (an accepted step swaps x and xn).
  double* x = state;
  struct CopyBack {  // leaves the last state in `state`
    double*& x;
    double* state;
    size_t n;
    ~CopyBack() {
      if (x != state) std::copy(x, x + n, state);
    }
  } copyBack{x, state, n};
  auto eval = [&](double t, const double* at, double* dx) {
    int64_t s = F(t, at, dx);
    if (s != 0) *fStatus = s;
    return s == 0;
  };
  auto scale = [&](double a, double b) { return atol + rtol * std::max(std::fabs(a), std::fabs(b)); };
  double t = t0;
  if (!eval(t, x, k1)) return OdeStatus::Failed;

  // The first step (Hairer's starting step size, II.4): from the sizes of x, x' and x''.
  double h = 0;
  {
    double d0 = 0, d1 = 0;
    for (size_t i = 0; i < n; ++i) {
      double sc = scale(x[i], x[i]);
      d0 = std::max(d0, std::fabs(x[i]) / sc);
      d1 = std::max(d1, std::fabs(k1[i]) / sc);
    }
    double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    if (nt > 0) h0 = std::min(h0, ts[nt - 1] - t0);
    for (size_t i = 0; i < n; ++i) xs[i] = x[i] + h0 * k1[i];
    if (!eval(t + h0, xs, k2)) return OdeStatus::Failed;
    double d2 = 0;
    for (size_t i = 0; i < n; ++i) d2 = std::max(d2, std::fabs(k2[i] - k1[i]) / scale(x[i], x[i]));
    d2 /= h0;
    double m = std::max(d1, d2);
    double h1 = m <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / m, 1.0 / 5);
    h = std::min(100 * h0, h1);
    if (!std::isfinite(h) || h <= 0) h = h0;
  }

  for (int64_t j = 0; j < nt; ++j) {
    const double tj = ts[j];
    int64_t steps = 0;
    while (t < tj) {
      if (++steps > max_steps) return OdeStatus::TooManySteps;
      // A step that would stop just short of tj is stretched onto it (Hairer's 1.01), so that no
      // remainder of a few ulps is left.
      const bool last = 1.01 * h >= tj - t;
      const double hh = last ? tj - t : h;
      if (!(hh > std::fabs(t) * 1e-15)) return OdeStatus::StepUnderflow;
      for (size_t i = 0; i < n; ++i) xs[i] = x[i] + hh * a21 * k1[i];
      if (!eval(t + c2 * hh, xs, k2)) return OdeStatus::Failed;
      for (size_t i = 0; i < n; ++i) xs[i] = x[i] + hh * (a31 * k1[i] + a32 * k2[i]);
      if (!eval(t + c3 * hh, xs, k3)) return OdeStatus::Failed;
      for (size_t i = 0; i < n; ++i) xs[i] = x[i] + hh * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
      if (!eval(t + c4 * hh, xs, k4)) return OdeStatus::Failed;
      for (size_t i = 0; i < n; ++i) xs[i] = x[i] + hh * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
      if (!eval(t + c5 * hh, xs, k5)) return OdeStatus::Failed;
      for (size_t i = 0; i < n; ++i)
        xs[i] = x[i] + hh * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
      if (!eval(t + hh, xs, k6)) return OdeStatus::Failed;
      for (size_t i = 0; i < n; ++i)
        xn[i] = x[i] + hh * (b1 * k1[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i]);
      if (!eval(t + hh, xn, k7)) return OdeStatus::Failed;
      double err = 0;
      for (size_t i = 0; i < n; ++i) {
        double e = hh * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i]);
        err = std::max(err, std::fabs(e) / scale(x[i], xn[i]));
        if (!std::isfinite(xn[i]) || !std::isfinite(k7[i])) err = INFINITY;
      }
      // Step size factor 0.9 err^(-1/5), between 0.2 and 5 (0.2 for a non-finite error).
      double factor = err == 0 ? 5.0 : std::isfinite(err) ? std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0) : 0.2;
      if (err <= 1) {
        t = last ? tj : t + hh;
        std::swap(x, xn);
        std::swap(k1, k7);  // first same as last
        // After a step shortened to land on an output time, the step proposed before it.
        h = last ? std::max(hh * factor, h) : hh * factor;
      } else {
        h = hh * std::min(factor, 1.0);
      }
    }
    report(j, x);
  }
  return OdeStatus::Ok;
}

}  // namespace pvi::kern

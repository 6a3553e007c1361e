// pvi_integrate_ode and its gradient (ode.h): the compiled right-hand side, the coupled
// sensitivity system, and the checks Stan makes of the arguments.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/ode/dormand_prince.hpp"
#include "stdlib/kernels/ode/ode.h"

namespace {

using pvi::kern::OdeStatus;

// Per-thread buffers that only grow, so that a solve allocates nothing after the first.
struct Buffers {
  std::vector<double> z, grad, state, work, jac;
  std::vector<uint64_t> workspace;  // f's workspace (8-byte aligned)
};
Buffers& buffers() {
  thread_local Buffers b;
  return b;
}

void grow(std::vector<double>& v, size_t n) {
  if (v.size() < n) v.resize(n);
}

// f compiled as in ode.h: z = [y, theta, seed], t in the data.
class RightHandSide {
 public:
  RightHandSide(pvi_factor_fn fn, int64_t n, int64_t p, const double* theta, int64_t r, const double* x_r, int64_t ni,
                const int64_t* x_i, Buffers& b)
      : fn_(fn), n_(n), p_(p), r_(r), ni_(ni), b_(b) {
    data_[0] = &n_;
    data_[1] = &p_;
    data_[2] = &r_;
    data_[3] = &ni_;
    data_[4] = &t_;
    data_[5] = x_r;
    data_[6] = x_i;
    const size_t dz = static_cast<size_t>(2 * n + p);
    grow(b.z, dz);
    grow(b.grad, dz);
    std::fill(b.z.begin(), b.z.begin() + static_cast<std::ptrdiff_t>(dz), 0.0);
    std::copy(theta, theta + p, b.z.begin() + n);
  }

  // dydt = f(t, y)
  int64_t derivative(double t, const double* y, double* dydt) {
    set(t, y, -1);
    int64_t s = call();
    if (s == 0) std::copy(seedGrad(), seedGrad() + n_, dydt);
    return s;
  }

  // dydt = f(t, y) and J (n rows of n + p, row-major) = [df/dy, df/dtheta], one row per call.
  int64_t jacobian(double t, const double* y, double* dydt, double* J) {
    const int64_t w = n_ + p_;
    for (int64_t k = 0; k < n_; ++k) {
      set(t, y, k);
      if (int64_t s = call()) return s;
      std::copy(b_.grad.data(), b_.grad.data() + w, J + k * w);
    }
    std::copy(seedGrad(), seedGrad() + n_, dydt);
    return 0;
  }

 private:
  // z = [y, theta, e_k] (k < 0: seed 0), at time t.
  void set(double t, const double* y, int64_t k) {
    double* z = b_.z.data();
    std::copy(y, y + n_, z);
    t_ = t;
    double* seed = z + n_ + p_;
    std::fill(seed, seed + n_, 0.0);
    if (k >= 0) seed[k] = 1.0;
  }
  const double* seedGrad() const { return b_.grad.data() + n_ + p_; }

  int64_t call() {
    for (;;) {
      int64_t status = 0;
      auto bytes = static_cast<int64_t>(b_.workspace.size() * sizeof(uint64_t));
      fn_(b_.z.data(), nullptr, nullptr, data_, nullptr, b_.grad.data(), nullptr, nullptr, b_.workspace.data(), bytes,
          &status);
      if (status > 0) {  // the workspace is too small: grow it and call again
        b_.workspace.resize(static_cast<size_t>(status + 7) / 8);
        continue;
      }
      if (status == PVI_STATUS_INDEX_OUT_OF_RANGE || status <= PVI_STATUS_INDEX_SITE_BASE)
        return PVI_STATUS_INDEX_OUT_OF_RANGE;  // f's sites are not the model's
      return status;
    }
  }

  pvi_factor_fn fn_;
  int64_t n_, p_, r_, ni_;
  double t_ = 0;
  const void* data_[7];
  Buffers& b_;
};

// Stan's argument checks: a fatal error for an empty state or no output times (Stan's
// invalid_argument), for times, tolerances and real data that are not valid (data: no other
// point would do better), a rejection for a non-finite initial state or parameter. Returns 0 to
// go on.
int64_t checkArguments(int64_t n, const double* y0, double t0, int64_t nt, const double* ts, int64_t p,
                       const double* theta, int64_t r, const double* x_r, double rtol, double atol, double max_steps) {
  auto fatal = [](const char* what, double value) {
    std::fprintf(stderr, "integrate_ode: %s (%g)\n", what, value);
    return static_cast<int64_t>(PVI_STATUS_FATAL_ERROR);
  };
  if (n == 0) return fatal("the initial state y0 has no elements", 0.0);
  if (nt == 0) return fatal("there are no output times ts", 0.0);
  for (int64_t i = 0; i < r; ++i)
    if (!std::isfinite(x_r[i])) return fatal("a real data argument of the ODE system is not finite", x_r[i]);
  if (!std::isfinite(t0)) return fatal("the initial time t0 is not finite", t0);
  for (int64_t j = 0; j < nt; ++j) {
    if (!std::isfinite(ts[j])) return fatal("an output time is not finite", ts[j]);
    if (j == 0 && !(ts[0] > t0)) return fatal("the first output time must be after the initial time t0", ts[0]);
    if (j > 0 && ts[j] < ts[j - 1]) return fatal("the output times must be in increasing order; a time went back to", ts[j]);
  }
  if (!(rtol > 0) || !std::isfinite(rtol)) return fatal("the relative tolerance must be positive", rtol);
  if (!(atol > 0) || !std::isfinite(atol)) return fatal("the absolute tolerance must be positive", atol);
  if (!(max_steps >= 1)) return fatal("max_num_steps must be at least 1", max_steps);
  for (int64_t i = 0; i < n; ++i)
    if (!std::isfinite(y0[i])) {
      pvi_set_reject_message("an ODE solver's initial state is not finite");
      return PVI_STATUS_REJECT;
    }
  for (int64_t i = 0; i < p; ++i)
    if (!std::isfinite(theta[i])) {
      pvi_set_reject_message("an ODE solver's parameters are not finite");
      return PVI_STATUS_REJECT;
    }
  return 0;
}

// Stan's max_num_steps, a real in its signature, as a count (capped: any count that large is
// no bound).
int64_t stepLimit(double max_steps) { return max_steps >= 1e18 ? INT64_MAX : static_cast<int64_t>(max_steps); }

int64_t statusOf(OdeStatus s, int64_t fStatus) {
  if (s == OdeStatus::Ok) return 0;
  if (s == OdeStatus::Failed) return fStatus;
  // Too many steps or a vanishing step: Stan rejects the point too.
  pvi_set_reject_message("an ODE solver took more than max_num_steps steps, or its step vanished");
  return PVI_STATUS_REJECT;
}

// The sensitivities of the last coupled solve whose result went to `out`, on this thread, with
// the inputs they belong to: the gradient kernel after pvi_integrate_ode_sens reads them instead of
// solving again. (One entry per result buffer: a model's ODE calls each have their own.)
struct Sensitivities {
  const double* out = nullptr;
  bool valid = false;  // the last solve for out succeeded
  int64_t n = 0, nt = 0, my = 0, mt = 0;
  std::vector<double> inputs;  // y0, theta, t0, ts: the solve they come from
  std::vector<double> S;       // n x (my + mt) per output time
};
std::vector<Sensitivities>& sensitivityCache() {
  thread_local std::vector<Sensitivities> cache;
  return cache;
}

void inputsOf(int64_t n, const double* y0, double t0, int64_t nt, const double* ts, int64_t p, const double* theta,
              std::vector<double>& v) {
  v.assign(y0, y0 + n);
  v.insert(v.end(), theta, theta + p);
  v.push_back(t0);
  v.insert(v.end(), ts, ts + nt);
}

// The coupled system x = [y, S], S (n x m, column-major) = dy/d(y0, theta) for the my = n (or 0)
// and mt = p (or 0) arguments that need a gradient: S' = df/dy S + [0, df/dtheta], S(t0) = [I, 0].
// At each output time j, report(j, y, S).
template <class Report>
int64_t solveCoupled(pvi_factor_fn f, int64_t n, const double* y0, double t0, int64_t nt, const double* ts, int64_t p,
                     const double* theta, int64_t r, const double* x_r, int64_t ni, const int64_t* x_i, double rtol,
                     double atol, double max_steps, int64_t my, int64_t mt, Report&& report) {
  const int64_t m = my + mt;
  Buffers& b = buffers();
  RightHandSide rhs(f, n, p, theta, r, x_r, ni, x_i, b);
  const int64_t w = n + p;
  const auto dim = static_cast<size_t>(n + n * m);
  grow(b.state, dim);
  grow(b.work, 9 * dim);
  grow(b.jac, static_cast<size_t>(n * w));
  double* x = b.state.data();
  std::fill(x, x + dim, 0.0);
  std::copy(y0, y0 + n, x);
  for (int64_t c = 0; c < my; ++c) x[n + c * n + c] = 1.0;
  double* J = b.jac.data();
  auto coupled = [&](double t, const double* xs, double* dx) -> int64_t {
    if (int64_t s = rhs.jacobian(t, xs, dx, J)) return s;
    for (int64_t c = 0; c < m; ++c) {
      const double* S = xs + n + c * n;
      double* dS = dx + n + c * n;
      for (int64_t i = 0; i < n; ++i) {
        const double* row = J + i * w;
        double v = c >= my ? row[n + (c - my)] : 0.0;
        for (int64_t k = 0; k < n; ++k) v += row[k] * S[k];
        dS[i] = v;
      }
    }
    return 0;
  };
  int64_t fStatus = 0;
  OdeStatus s = pvi::kern::dormandPrince(static_cast<int64_t>(dim), t0, x, b.work.data(), nt, ts, rtol, atol,
                                         stepLimit(max_steps), coupled,
                                         [&](int64_t j, const double* xs) { report(j, xs, xs + n); }, &fStatus);
  return statusOf(s, fStatus);
}

}  // namespace

extern "C" int64_t pvi_integrate_ode(pvi_factor_fn f, int64_t n, const double* y0, double t0, int64_t nt,
                                     const double* ts, int64_t p, const double* theta, int64_t r, const double* x_r,
                                     int64_t ni, const int64_t* x_i, double rtol, double atol, double max_steps,
                                     double* out) {
  if (int64_t s = checkArguments(n, y0, t0, nt, ts, p, theta, r, x_r, rtol, atol, max_steps)) return s;
  if (nt == 0 || n == 0) return 0;
  Buffers& b = buffers();
  RightHandSide rhs(f, n, p, theta, r, x_r, ni, x_i, b);
  const auto dim = static_cast<size_t>(n);
  grow(b.state, dim);
  grow(b.work, 9 * dim);
  std::copy(y0, y0 + n, b.state.begin());
  int64_t fStatus = 0;
  OdeStatus s = pvi::kern::dormandPrince(
      n, t0, b.state.data(), b.work.data(), nt, ts, rtol, atol, stepLimit(max_steps),
      [&](double t, const double* y, double* dydt) { return rhs.derivative(t, y, dydt); },
      [&](int64_t j, const double* y) { std::copy(y, y + n, out + j * n); }, &fStatus);
  return statusOf(s, fStatus);
}

extern "C" int64_t pvi_integrate_ode_sens(pvi_factor_fn f, int64_t n, const double* y0, double t0, int64_t nt,
                                          const double* ts, int64_t p, const double* theta, int64_t r,
                                          const double* x_r, int64_t ni, const int64_t* x_i, double rtol,
                                          double atol, double max_steps, int64_t need_y0, int64_t need_theta,
                                          double* out) {
  if (int64_t s = checkArguments(n, y0, t0, nt, ts, p, theta, r, x_r, rtol, atol, max_steps)) return s;
  if (nt == 0 || n == 0) return 0;
  const int64_t my = need_y0 ? n : 0, mt = need_theta ? p : 0, m = my + mt;
  std::vector<Sensitivities>& cache = sensitivityCache();
  auto entry = std::find_if(cache.begin(), cache.end(), [&](const Sensitivities& e) { return e.out == out; });
  // A new result buffer takes the entry a failed solve left free, so that the cache stays as long
  // as the model has solves.
  if (entry == cache.end())
    entry = std::find_if(cache.begin(), cache.end(), [](const Sensitivities& e) { return e.out == nullptr; });
  if (entry == cache.end()) entry = cache.insert(cache.end(), Sensitivities{});
  entry->out = nullptr;  // free, and not valid, until the solve succeeds
  entry->valid = false;
  entry->S.resize(static_cast<size_t>(n * m * nt));
  double* S = entry->S.data();
  const int64_t status = solveCoupled(f, n, y0, t0, nt, ts, p, theta, r, x_r, ni, x_i, rtol, atol, max_steps, my, mt,
                                      [&](int64_t j, const double* y, const double* sj) {
                                        std::copy(y, y + n, out + j * n);
                                        std::copy(sj, sj + n * m, S + j * n * m);
                                      });
  if (status != 0) return status;
  entry->out = out;
  entry->valid = true;
  entry->n = n;
  entry->nt = nt;
  entry->my = my;
  entry->mt = mt;
  inputsOf(n, y0, t0, nt, ts, p, theta, entry->inputs);
  return 0;
}

// g_y0 += sum_j S_y0(t_j)' g_out_j and g_theta += sum_j S_theta(t_j)' g_out_j, from the sensitivities
// pvi_integrate_ode_sens kept for `out` when they belong to these inputs, else from a new solve.
extern "C" int64_t pvi_integrate_ode_grad(pvi_factor_fn f, int64_t n, const double* y0, double t0, int64_t nt,
                                          const double* ts, int64_t p, const double* theta, int64_t r,
                                          const double* x_r, int64_t ni, const int64_t* x_i, double rtol,
                                          double atol, double max_steps, const double* out, const double* g_out,
                                          double* g_y0, double* g_theta) {
  if (int64_t s = checkArguments(n, y0, t0, nt, ts, p, theta, r, x_r, rtol, atol, max_steps)) return s;
  const int64_t my = g_y0 ? n : 0, mt = g_theta ? p : 0;
  if (nt == 0 || n == 0 || my + mt == 0) return 0;
  auto accumulate = [&](int64_t j, const double* sj, int64_t cy, int64_t ct) {
    const double* g = g_out + j * n;
    for (int64_t c = 0; c < cy + ct; ++c) {
      const double* S = sj + c * n;
      double v = 0;
      for (int64_t i = 0; i < n; ++i) v += S[i] * g[i];
      if (c < cy) {
        if (g_y0) g_y0[c] += v;
      } else if (g_theta) {
        g_theta[c - cy] += v;
      }
    }
  };
  std::vector<Sensitivities>& cache = sensitivityCache();
  auto entry = std::find_if(cache.begin(), cache.end(), [&](const Sensitivities& e) { return e.out == out; });
  if (entry != cache.end() && entry->valid && entry->n == n && entry->nt == nt && entry->my >= my &&
      entry->mt >= mt) {
    std::vector<double>& scratch = buffers().work;  // reused: no solve runs here
    inputsOf(n, y0, t0, nt, ts, p, theta, scratch);
    if (std::equal(scratch.begin(), scratch.end(), entry->inputs.begin(), entry->inputs.end())) {
      const int64_t m = entry->my + entry->mt;
      for (int64_t j = 0; j < nt; ++j) accumulate(j, entry->S.data() + j * n * m, entry->my, entry->mt);
      return 0;
    }
  }
  return solveCoupled(f, n, y0, t0, nt, ts, p, theta, r, x_r, ni, x_i, rtol, atol, max_steps, my, mt,
                      [&](int64_t j, const double*, const double* sj) { accumulate(j, sj, my, mt); });
}

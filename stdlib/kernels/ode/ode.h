/* Stan's ODE solvers integrate_ode_rk45 / _bdf / _adams (the interface with theta, x_r, x_i):
 * y' = f(t, y, theta, x_r, x_i) from y(t0) = y0, reported at the output times ts. Same
 * conventions as kernels.h (gradients accumulate; a null gradient pointer: not needed).
 *
 * f is compiled separately (compiler/driver/OdeSystems.hpp) as the gradient function of
 *   target = seed' f(t, y, theta, x_r, x_i),   z = [y (n), theta (p), seed (n)],
 * with the data {n, p, r, ni, t, x_r, x_i}: its gradient with respect to seed is f, and with
 * respect to (y, theta) the row seed' [df/dy, df/dtheta]. max_steps: Stan's max_num_steps (a
 * real in its signature), the attempted steps allowed between two output times.
 *
 * out (n * nt, the state at ts[j] in out[j * n ...]) is solved by the Dormand-Prince 5(4)
 * method with adaptive steps (error per component at most atol + rtol * |y|), stepping onto
 * every output time. For a gradient the forward sensitivities dy/dy0 and dy/dtheta are integrated
 * with y, all of them under the error control, as Stan does; the gradient adds their products
 * with g_out.
 *
 * Returns 0; PVI_STATUS_REJECT when the solver fails (more than max_steps steps between two
 * output times, a step size underflow, a non-finite state or argument: Stan rejects the point);
 * PVI_STATUS_FATAL_ERROR, with a message on stderr, for output times that are not increasing
 * after t0, a negative tolerance, an empty y0, no output times or a non-finite x_r; or the failing status of f
 * (PVI_STATUS_INDEX_OUT_OF_RANGE for any index error in f, whose sites are f's own). */
#ifndef PVI_STDLIB_ODE_H
#define PVI_STDLIB_ODE_H

#include <stdint.h>

#include "runtime/abi/factor_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

int64_t pvi_integrate_ode(pvi_factor_fn f, int64_t n, const double *y0, double t0, int64_t nt, const double *ts,
                          int64_t p, const double *theta, int64_t r, const double *x_r, int64_t ni,
                          const int64_t *x_i, double rtol, double atol, double max_steps, double *out);
/* The same solution with the sensitivities to y0 (need_y0) and theta (need_theta) integrated
 * alongside, so that out is the solution the gradient belongs to; they are kept (per thread, per
 * out) for the gradient kernel. Gradient functions call this in place of pvi_integrate_ode. */
int64_t pvi_integrate_ode_sens(pvi_factor_fn f, int64_t n, const double *y0, double t0, int64_t nt,
                               const double *ts, int64_t p, const double *theta, int64_t r, const double *x_r,
                               int64_t ni, const int64_t *x_i, double rtol, double atol, double max_steps,
                               int64_t need_y0, int64_t need_theta, double *out);
/* Accumulates g_y0 and g_theta from g_out, with the sensitivities pvi_integrate_ode_sens kept for
 * out and these inputs, or (none kept) from a new coupled solve. */
int64_t pvi_integrate_ode_grad(pvi_factor_fn f, int64_t n, const double *y0, double t0, int64_t nt,
                               const double *ts, int64_t p, const double *theta, int64_t r, const double *x_r,
                               int64_t ni, const int64_t *x_i, double rtol, double atol, double max_steps,
                               const double *out, const double *g_out, double *g_y0, double *g_theta);

#ifdef __cplusplus
}
#endif

#endif

#pragma once
// The right-hand sides of the ODE systems that integrate_ode_* calls name (LoweredModel::
// odeSystems). Each is lowered from a program of its own, made of the model's functions block
// and
//   data       { int N; int P; int R; int I; real t; array[R] real x_r; array[I] int x_i; }
//   parameters { array[N] real y; array[P] real theta; vector[N] seed; }
//   model      { target += dot_product(seed, to_vector(f(t, y, theta, x_r, x_i))); }
// (the product through a function that first stops with a fatal error when f's result does not
// have N elements)
// (with names a program cannot clash with), whose prior factor's gradient the solver calls: the
// gradient with respect to seed is f, that with respect to (y, theta) one row of f's Jacobian
// (t is data, so that f may branch on it, as Stan's examples do)
// (stdlib/kernels/ode/ode.h). The functions block keeps its offsets in the model's source, so
// an error in f is reported where it is in the model.
#include "compiler/diagnostics/Diagnostics.hpp"
#include "compiler/lower/Lower.hpp"

namespace pvi {

// Fills every system's rhs; false (with errors reported) when one does not compile.
bool lowerOdeSystems(const CheckedProgram& program, LoweredModel& model, Diagnostics& diags);

}  // namespace pvi

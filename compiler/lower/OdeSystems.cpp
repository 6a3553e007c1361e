#include "compiler/lower/OdeSystems.hpp"

#include <algorithm>

#include "compiler/driver/Frontend.hpp"

namespace pvi {

namespace {

// The program of one system: the model's text up to the end of its last function, then the
// blocks described in OdeSystems.hpp. Returns the length of the part taken from the model.
std::string systemProgram(const CheckedProgram& program, const std::string& source, const std::string& function,
                          size_t& prefix) {
  uint32_t end = 0;
  for (const FunctionDef& f : program.program.functions) end = std::max(end, f.span.end);
  prefix = std::min<size_t>(end, source.size());
  // ode_dot__ checks the length of f's result (which the data cannot decide) before the product.
  return source.substr(0, prefix) +
         "\n"
         "  real ode_dot__(vector seed, array[] real dydt) {\n"
         "    if (size(dydt) != rows(seed))\n"
         "      fatal_error(\"the ODE system '" + function + "' returned \", size(dydt),\n"
         "                  \" derivatives for \", rows(seed), \" states\");\n"
         "    return dot_product(seed, to_vector(dydt));\n"
         "  }\n"
         "}\n"
         "data {\n"
         "  int ode_N__; int ode_P__; int ode_R__; int ode_I__; real ode_t__;\n"
         "  array[ode_R__] real ode_x_r__;\n"
         "  array[ode_I__] int ode_x_i__;\n"
         "}\n"
         "parameters {\n"
         "  array[ode_N__] real ode_y__;\n"
         "  array[ode_P__] real ode_theta__;\n"
         "  vector[ode_N__] ode_seed__;\n"
         "}\n"
         "model {\n"
         "  target += ode_dot__(ode_seed__, " +
         function + "(ode_t__, ode_y__, ode_theta__, ode_x_r__, ode_x_i__));\n"
         "}\n";
}

}  // namespace

bool lowerOdeSystems(const CheckedProgram& program, LoweredModel& model, Diagnostics& diags) {
  bool ok = true;
  for (OdeSystem& system : model.odeSystems) {
    size_t prefix = 0;
    std::string text = systemProgram(program, diags.file().text(), system.function, prefix);
    FrontendResult front = runFrontend(diags.file().path(), std::move(text));
    // A system whose functions solve an ODE themselves would compile its own systems, and so on.
    if (front.ok() && !front.checked->odeSystems.empty()) {
      diags.error(system.call, "the ODE system '" + system.function + "' calls an ODE solver itself, which pvic does "
                                                                        "not support");
      ok = false;
      continue;
    }
    std::optional<LoweredModel> lowered;
    if (front.ok()) lowered = lowerModel(*front.checked, *front.diags);
    if (lowered) {
      system.rhs = std::move(lowered->prior);
      continue;
    }
    ok = false;
    for (const Diagnostic& d : front.diags->sorted()) {
      if (d.severity != Severity::Error) continue;
      if (d.span.end <= prefix) diags.error(d.span, "in the ODE system '" + system.function + "': " + d.message);
      else diags.error(system.call, "the ODE system '" + system.function + "' does not compile: " + d.message);
    }
  }
  return ok;
}

}  // namespace pvi

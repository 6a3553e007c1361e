#include "compiler/lower/OdeSystems.hpp"

#include <algorithm>
#include <cctype>

#include "compiler/driver/Frontend.hpp"

namespace pvi {

namespace {

// The arguments of the system after y, unpacked from theta, x_r and x_i as
// FunctionLowerer::packOdeArguments packs them (after the '~', one layout character per argument: r real, v
// vector, w row_vector, a array[] real, lower case from theta, upper case from x_r; i int,
// j array[] int from x_i, after the sizes of the one-dimensional arguments).
std::string variadicArguments(const std::string& marked) {
  const std::string layout = marked.substr(1);  // after the '~'
  size_t headers = 0;
  for (char c : layout) headers += std::string("vVwWaAj").find(c) != std::string::npos ? 1 : 0;
  std::string theta = "1", xr = "1", xi = std::to_string(headers + 1), out;
  size_t header = 0;
  for (char c : layout) {
    const bool scalar = c == 'r' || c == 'R' || c == 'i';
    std::string& at = c == 'i' || c == 'j' ? xi : std::islower(static_cast<unsigned char>(c)) ? theta : xr;
    const std::string buffer = c == 'i' || c == 'j'                          ? "ode_x_i__"
                               : std::islower(static_cast<unsigned char>(c)) ? "ode_theta__"
                                                                             : "ode_x_r__";
    std::string value;
    if (scalar) {
      value = buffer + "[" + at + "]";
      at += " + 1";
    } else {
      const std::string size = "ode_x_i__[" + std::to_string(++header) + "]";
      value = buffer + "[" + at + ":" + at + " + " + size + " - 1]";
      at += " + " + size;
      const char kind = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (kind == 'v') value = "to_vector(" + value + ")";
      if (kind == 'w') value = "to_vector(" + value + ")'";
    }
    out += ", " + value;
  }
  return out;
}

// The program of one system: the model's text up to the end of its last function, then the
// blocks described in OdeSystems.hpp. Returns the length of the part taken from the model.
std::string systemProgram(const CheckedProgram& program, const std::string& source, const OdeSystem& system,
                          size_t& prefix) {
  uint32_t end = 0;
  for (const FunctionDef& f : program.program.functions) end = std::max(end, f.span.end);
  prefix = std::min<size_t>(end, source.size());
  const std::string& function = system.function;
  const bool variadic = !system.layout.empty();
  const std::string call = variadic ? function + "(ode_t__, to_vector(ode_y__)" + variadicArguments(system.layout) + ")"
                                    : function + "(ode_t__, ode_y__, ode_theta__, ode_x_r__, ode_x_i__)";
  // ode_dot__ checks the length of f's result (which the data cannot decide) before the product.
  return source.substr(0, prefix) +
         "\n"
         "  real ode_dot__(vector seed, " +
         (variadic ? "vector" : "array[] real") +
         " dydt) {\n"
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
         call +
         ");\n"
         "}\n";
}

}  // namespace

bool lowerOdeSystems(const CheckedProgram& program, LoweredModel& model, Diagnostics& diags) {
  bool ok = true;
  for (OdeSystem& system : model.odeSystems) {
    size_t prefix = 0;
    std::string text = systemProgram(program, diags.file().text(), system, prefix);
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

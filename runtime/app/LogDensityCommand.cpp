// `log-density`: every factor's value and gradient at one unconstrained point, as JSON on stdout
// (for debugging and for comparison with other tools).
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "runtime/app/BindData.hpp"
#include "runtime/app/Cli.hpp"

namespace pvi::app {

namespace {

// JSON has no NaN or infinity: write them as CmdStan JSON does, as strings.
nlohmann::json number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
  return v;
}

nlohmann::json numbers(const std::vector<double>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (double x : v) a.push_back(number(x));
  return a;
}

std::vector<double> orZeros(const std::vector<double>& given, std::size_t n, const char* option) {
  if (given.empty()) return std::vector<double>(n, 0.0);
  if (given.size() != n)
    throw std::invalid_argument(std::string(option) + " needs " + std::to_string(n) + " values, got " +
                                std::to_string(given.size()));
  return given;
}

}  // namespace

int runLogDensity(const std::string& program, const LoadedModel& lm, const DataCli& data, const LogDensityCli& p) {
  try {
    BoundModel b = bindData(lm, data);
    printNotes(program, b);
    const CompiledModel& m = *b.model;
    std::size_t totalW = 0;
    for (std::size_t j = 0; j < m.numPartitions(); ++j) totalW += m.localDim(j);
    const std::vector<double> z = orZeros(p.z, m.globalDim(), "--z");
    const std::vector<double> w = orZeros(p.w, totalW, "--w");
    const std::vector<double> theta = orZeros(p.theta, m.hyperDim(), "--theta");
    const double* th = theta.empty() ? nullptr : theta.data();

    nlohmann::json out;
    std::vector<double> gz(z.size()), gt(theta.size()), totalGz(z.size(), 0.0);
    double total = m.priorLogDensity(z.data(), th, gz.data(), gt.data());
    for (std::size_t i = 0; i < z.size(); ++i) totalGz[i] += gz[i];
    out["prior"] = {{"value", number(total)}, {"grad_z", numbers(gz)}, {"grad_theta", numbers(gt)}};
    out["partitions"] = nlohmann::json::array();
    std::size_t offset = 0;
    for (std::size_t j = 0; j < m.numPartitions(); ++j) {
      std::vector<double> gw(m.localDim(j));
      const double* wj = gw.empty() ? nullptr : w.data() + offset;
      const double v = m.partitionLogDensity(j, z.data(), wj, th, gz.data(), gw.empty() ? nullptr : gw.data(),
                                             gt.data());
      offset += gw.size();
      total += v;
      for (std::size_t i = 0; i < z.size(); ++i) totalGz[i] += gz[i];
      out["partitions"].push_back(
          {{"label", m.partitionLabels().at(j)}, {"value", number(v)}, {"grad_z", numbers(gz)}, {"grad_w", numbers(gw)}});
    }
    out["total"] = {{"value", number(total)}, {"grad_z", numbers(totalGz)}};
    out["names_z"] = m.globalNames();
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return bindErrorExitCode(e);
  }
}

}  // namespace pvi::app

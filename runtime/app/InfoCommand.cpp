// `info`: the model's data, parameters, partition and factor structure.
#include <iostream>

#include "runtime/app/Cli.hpp"

namespace pvi::app {

namespace {

void list(const char* title, const std::vector<VariableInfo>& vars) {
  if (vars.empty()) return;
  std::cout << title << "\n";
  for (const VariableInfo& v : vars) std::cout << "  " << v.type << " " << v.name << "\n";
}

}  // namespace

int runInfo(const LoadedModel& m) {
  const ModelInfo& i = m.info;
  const std::string& p = i.data.partitionName;
  std::cout << "model: " << i.name << "\n";
  std::cout << "partition: " << (p.empty() ? "(none)" : p) << "\n";
  list("data:", i.data.shared);
  if (!p.empty()) list(("data per " + p + ":").c_str(), i.data.partition);
  list("hyperparameters (theta):", i.hypers);
  list("global latents (z, shared by every partition):", i.globals);
  if (!p.empty()) list(("local latents per " + p + " (w, private to their partition):").c_str(), i.locals);
  list("generated quantities:", i.generatedShared);
  if (!p.empty()) list(("generated quantities per " + p + ":").c_str(), i.generatedPartition);
  std::cout << "factors:\n  prior: log p(z, theta), held by the server\n";
  if (!p.empty())
    std::cout << "  one per " << p << ": log p(w | z, theta) + log p(y | z, w, theta), held by that " << p << "\n";
  return kExitOk;
}

}  // namespace pvi::app

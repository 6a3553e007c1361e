#include "compiler/sema/Symbol.hpp"

namespace pvi {

const char* symbolKindName(SymbolKind k) {
  switch (k) {
    case SymbolKind::SharedData: return "data";
    case SymbolKind::PartitionData: return "data per";
    case SymbolKind::Hyper: return "hyper";
    case SymbolKind::Global: return "global";
    case SymbolKind::Local: return "local per";
    case SymbolKind::ModelVar: return "model variable";
    case SymbolKind::GeneratedVar: return "generated";
    case SymbolKind::LoopVar: return "loop variable";
  }
  return "?";
}

void Taint::merge(const Taint& other) {
  for (const auto& [p, s] : other.partitions) partitions.emplace(p, s);
  if (latent == nullptr) latent = other.latent;
  poisoned = poisoned || other.poisoned;
}

bool Taint::operator==(const Taint& other) const {
  if (partitions.size() != other.partitions.size() || (latent == nullptr) != (other.latent == nullptr) ||
      poisoned != other.poisoned)
    return false;
  for (const auto& [p, s] : partitions)
    if (!other.partitions.count(p)) return false;
  return true;
}

}  // namespace pvi

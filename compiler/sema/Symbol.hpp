#pragma once
// Variables known to the checker, and the taint that decides which factor a statement joins.
#include <map>
#include <string>

#include "compiler/diagnostics/SourceFile.hpp"
#include "compiler/sema/Type.hpp"

namespace pvi {

struct Stmt;

enum class SymbolKind {
  SharedData,     // data { }
  PartitionData,  // data per P { }
  Hyper,          // hyper { }: point-estimated hyperparameters
  Global,         // global { }: shared latents
  Local,          // local per P { }: private latents of each partition
  ModelVar,       // a variable declared inside the model block
  GeneratedVar,   // a variable declared inside the generated block
  LoopVar,        // a for-loop index
};

const char* symbolKindName(SymbolKind k);  // "data", "data per", "hyper", ...

struct Symbol;

// What an expression depends on: which partitions (through per-partition data or locals) and
// whether any latent. Each entry keeps the first variable that brought it in, for messages.
struct Taint {
  std::map<std::string, const Symbol*> partitions;
  const Symbol* latent = nullptr;
  bool poisoned = false;  // depends on a variable whose own taint was already reported as wrong

  void merge(const Taint& other);
  bool operator==(const Taint& other) const;
};

struct Symbol {
  std::string name;
  SymbolKind kind;
  Type type;
  Span declSpan;           // the declared name
  std::string partition;   // PartitionData and Local: their partition
  const Stmt* decl = nullptr;
  bool hasPrior = false;   // latents: appears on the left of '~' or as a density's variate
  // SharedData and PartitionData: a top-level variable of the transformed data block, computed
  // when the data are bound (compiler/desugar/TransformedBlocks.hpp), not read from a file.
  bool transformed = false;
  Taint taint;             // intrinsic for block variables; computed for model/generated/loop variables

  bool isLatent() const { return kind == SymbolKind::Hyper || kind == SymbolKind::Global || kind == SymbolKind::Local; }
  bool isData() const { return kind == SymbolKind::SharedData || kind == SymbolKind::PartitionData; }
};

}  // namespace pvi

#include "compiler/fuse/FuseElementwise.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace pvi {

namespace {

using ir::Inst;
using ir::Op;
using ir::ValueId;

// The postfix token of a fusable instruction, or "" when it is not one.
std::string operatorOf(const Inst& i) {
  if (i.op != Op::Kernel || i.type.elem != ir::Elem::Real || i.fused) return "";
  if (i.name == "ew_add") return "+";
  if (i.name == "ew_sub") return "-";
  if (i.name == "ew_mul") return "*";
  if (i.name == "ew_div") return "/";
  if (i.name == "neg") return "neg";
  return "";
}

// Instructions that end a stretch in which a tree may be gathered: control flow, and writes.
bool endsStretch(Op op) {
  switch (op) {
    case Op::LoopBegin:
    case Op::LoopEnd:
    case Op::LoopExitUnless:
    case Op::IfBegin:
    case Op::Else:
    case Op::IfEnd:
    case Op::Store:
    case Op::Var:
    case Op::Print: return true;
    default: return false;
  }
}

class Fuser {
 public:
  explicit Fuser(ir::Function& f) : f_(f), n_(f.insts.size()) {}

  void run() {
    countUses();
    markInternal();
    rebuild();
  }

 private:
  void countUses() {
    uses_.assign(n_, 0);
    user_.assign(n_, ir::kNone);
    for (size_t k = 0; k < n_; ++k)
      for (ValueId a : f_.insts[k].operands)
        if (a != ir::kNone) {
          ++uses_[static_cast<size_t>(a)];
          user_[static_cast<size_t>(a)] = static_cast<ValueId>(k);
        }
    // Stretches: instructions between two that end one share a stretch number.
    stretch_.assign(n_, 0);
    int s = 0;
    for (size_t k = 0; k < n_; ++k) {
      if (endsStretch(f_.insts[k].op)) ++s;
      stretch_[k] = s;
    }
  }

  // An operation is internal to its user's tree when it is its only use, the user is fusable,
  // and both lie in one stretch (so every leaf holds at the user the value it held at the
  // operation).
  void markInternal() {
    internal_.assign(n_, false);
    for (size_t k = 0; k < n_; ++k) {
      if (operatorOf(f_.insts[k]).empty() || uses_[k] != 1) continue;
      const size_t u = static_cast<size_t>(user_[k]);
      internal_[k] = !operatorOf(f_.insts[u]).empty() && stretch_[u] == stretch_[k];
    }
  }

  // Appends the postfix of the tree rooted at k to `tokens`, its leaves to `leaves`.
  void postfix(size_t k, std::vector<std::string>& tokens, std::vector<ValueId>& leaves) const {
    const Inst& i = f_.insts[k];
    for (ValueId a : i.operands) {
      if (internal_[static_cast<size_t>(a)]) {
        postfix(static_cast<size_t>(a), tokens, leaves);
        continue;
      }
      auto at = std::find(leaves.begin(), leaves.end(), a);
      if (at == leaves.end()) at = leaves.insert(leaves.end(), a);
      tokens.push_back(std::to_string(at - leaves.begin()));
    }
    tokens.push_back(operatorOf(i));
  }

  ValueId remap(ValueId v) const { return v == ir::kNone ? ir::kNone : map_[static_cast<size_t>(v)]; }

  void rebuild() {
    ir::Function out;
    out.name = f_.name;
    map_.assign(n_, ir::kNone);
    for (size_t k = 0; k < n_; ++k) {
      if (internal_[k]) continue;  // emitted inside its root
      Inst i = f_.insts[k];
      if (!operatorOf(i).empty()) {
        std::vector<ValueId> leaves;
        std::vector<std::string> tokens;
        postfix(k, tokens, leaves);
        i.name = kFusedElementwise;
        i.operands = leaves;
        i.texts = tokens;
      }
      for (ValueId& a : i.operands) {
        if (a != ir::kNone && internal_[static_cast<size_t>(a)])
          throw std::logic_error("a fused value escapes its tree");
        a = remap(a);
      }
      for (int d = 0; d < ir::kMaxRank; ++d) {
        i.type.dims[d] = remap(i.type.dims[d]);
        i.type.cap[d] = remap(i.type.cap[d]);
      }
      map_[k] = out.add(std::move(i));
    }
    out.dimZ = remap(f_.dimZ);
    out.dimW = remap(f_.dimW);
    out.dimTheta = remap(f_.dimTheta);
    out.dimOut = remap(f_.dimOut);
    f_ = std::move(out);
  }

  ir::Function& f_;
  const size_t n_;
  std::vector<int> uses_, stretch_;
  std::vector<ValueId> user_, map_;
  std::vector<bool> internal_;
};

}  // namespace

void fuseElementwise(ir::Function& f) { Fuser(f).run(); }

}  // namespace pvi

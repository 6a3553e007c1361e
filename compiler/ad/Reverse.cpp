#include "compiler/ad/Reverse.hpp"

#include <stdexcept>
#include <vector>

#include "stdlib/Ops.hpp"

namespace pvi {

using ir::Inst;
using ir::Op;
using ir::ValueId;

namespace {

ir::Input gradientOf(ir::Input in) {
  switch (in) {
    case ir::Input::Z: return ir::Input::GradZ;
    case ir::Input::W: return ir::Input::GradW;
    case ir::Input::Theta: return ir::Input::GradTheta;
    default: return in;
  }
}

bool opensBlock(Op op) { return op == Op::LoopBegin || op == Op::IfBegin; }

// Builds the gradient function. Straight-line code is reversed instruction by instruction. A
// loop becomes a loop running backwards whose every iteration first replays the forward body
// (its temporaries; variables that the loop assigns are read through loads, which keep each
// iteration's copy and read it back in the replay, so the replay recomputes exactly that
// iteration's values), then zeroes the iteration's adjoints and runs the body's derivative
// rules in reverse. A store's rule moves the adjoint of what it overwrote to the stored value. A branch is reversed under the same condition, which
// depends on data only, and replays its own body the same way: values made inside a block are
// used only inside it, and the forward block's values do not dominate the reversed block.
class Reverser {
 public:
  explicit Reverser(const ir::Function& forward) : fwd_(forward) {}

  ir::Function run() {
    g_.name = fwd_.name + "_grad";
    g_.insts = fwd_.insts;
    g_.dimZ = fwd_.dimZ;
    g_.dimW = fwd_.dimW;
    g_.dimTheta = fwd_.dimTheta;
    const size_t n = fwd_.insts.size();
    matchBlocks();
    analyseActivity();
    keepOnlyWhatTargetReads();
    markSensitivities();
    fuseDensities();
    std::vector<ValueId> map(n), adj(n, ir::kNone);
    for (size_t k = 0; k < n; ++k) map[k] = static_cast<ValueId>(k);
    defineAdjoints(0, n, map, adj);
    reverse(0, n, map, adj);
    return std::move(g_);
  }

 private:
  // end_[k]: for a LoopBegin or IfBegin, the index of its end; else_[k]: of its Else, if any.
  void matchBlocks() {
    const size_t n = fwd_.insts.size();
    end_.assign(n, 0);
    else_.assign(n, 0);
    std::vector<size_t> open;
    for (size_t k = 0; k < n; ++k) {
      Op op = fwd_.insts[k].op;
      if (opensBlock(op)) open.push_back(k);
      if (op == Op::Else) else_[open.back()] = k;
      if (op == Op::LoopEnd || op == Op::IfEnd) {
        end_[open.back()] = k;
        open.pop_back();
      }
    }
  }

  // The Var (or value) that view v is a view of.
  size_t rootOf(ValueId v) const {
    while (fwd_.at(v).op == Op::Element) v = fwd_.at(v).operands[0];
    return static_cast<size_t>(v);
  }

  // A value is active when it is real and depends on a parameter. A Var is active when an
  // active value is stored into it, possibly later (in a loop), so iterate to a fixed point; a
  // Store is active when its Var is (its rule then moves and clears the adjoint).
  void analyseActivity() {
    const size_t n = fwd_.insts.size();
    active_.assign(n, false);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t k = 0; k < n; ++k) {
        const Inst& i = fwd_.insts[k];
        bool a = active_[k];
        if (i.op == Op::Param) {
          a = true;
        } else if (i.op == Op::Store) {
          size_t root = rootOf(i.operands[0]);
          if (active_[static_cast<size_t>(i.operands[1])] && !active_[root]) {
            active_[root] = true;
            changed = true;
          }
          a = active_[root];
        } else if ((i.op == Op::Kernel || i.op == Op::Element || i.op == Op::Reshape || i.op == Op::Var ||
                    i.op == Op::Load) &&
                   i.type.elem == ir::Elem::Real) {
          for (ValueId x : i.operands)
            if (x != ir::kNone && active_[static_cast<size_t>(x)]) a = true;
        }
        if (a != active_[k]) {
          active_[k] = a;
          changed = true;
        }
      }
    }
  }

  // Only values that target depends on need an adjoint and a rule: an operand of `target +=` or
  // of a transform that adds its log-Jacobian, an operand of such a value, a value stored into a
  // Var that is such a value (with the view it is stored through). Others that depend on
  // parameters (a check's min(x - L), a transformed parameter that only a reject reads) lose
  // their activity, and a loop or branch left without active values is not reversed. Parameters
  // stay active: their adjoints are the gradient outputs.
  void keepOnlyWhatTargetReads() {
    const size_t n = fwd_.insts.size();
    std::vector<bool> read(n, false);
    bool changed = true;
    auto mark = [&](ValueId v) {
      if (v == ir::kNone || read[static_cast<size_t>(v)]) return;
      read[static_cast<size_t>(v)] = true;
      changed = true;
    };
    while (changed) {
      changed = false;
      for (size_t k = n; k-- > 0;) {
        const Inst& i = fwd_.insts[k];
        if (i.op == Op::Store) {
          if (read[rootOf(i.operands[0])]) {
            mark(i.operands[0]);
            mark(i.operands[1]);
          }
          continue;
        }
        const stdlib::KernelOp* op = i.op == Op::Kernel ? stdlib::findKernelOp(i.name) : nullptr;
        const bool addsToTarget =
            i.op == Op::AddTarget || (op != nullptr && op->conv == stdlib::CallConv::Transform && i.imm != 0);
        if (addsToTarget) mark(static_cast<ValueId>(k));
        if (!read[k]) continue;
        if (i.op == Op::Kernel || i.op == Op::Element || i.op == Op::Reshape || i.op == Op::Var || i.op == Op::Load ||
            i.op == Op::AddTarget)
          for (ValueId a : i.operands) mark(a);
      }
    }
    for (size_t k = 0; k < n; ++k)
      if (fwd_.insts[k].op != Op::Param && fwd_.insts[k].op != Op::Store && !read[k]) active_[k] = false;
    for (size_t k = 0; k < n; ++k)
      if (fwd_.insts[k].op == Op::Store) active_[k] = active_[rootOf(fwd_.insts[k].operands[0])];
  }

  // An ODE solve with an active y0 or theta integrates their sensitivities in its forward call
  // (original and replayed copies alike), so that its value is the solution its rule belongs to.
  void markSensitivities() {
    for (size_t k = 0; k < fwd_.insts.size(); ++k) {
      Inst& i = g_.insts[k];
      const stdlib::KernelOp* op = i.op == Op::Kernel ? stdlib::findKernelOp(i.name) : nullptr;
      if (op == nullptr || op->conv != stdlib::CallConv::Ode) continue;
      i.sensitivities = (active_[static_cast<size_t>(i.operands[0])] ? 1 : 0) |
                        (active_[static_cast<size_t>(i.operands[3])] ? 2 : 0);
    }
  }

  // A density used only by one `target +=` has adjoint 1: its backward call computes the value
  // too, so the forward call and the `target +=` are dropped.
  void fuseDensities() {
    const size_t n = fwd_.insts.size();
    std::vector<int> uses(n, 0);
    for (const Inst& i : fwd_.insts)
      for (ValueId a : i.operands)
        if (a != ir::kNone) ++uses[static_cast<size_t>(a)];
    for (size_t k = 0; k < n; ++k) {
      Inst& i = g_.insts[k];
      if (i.op != Op::AddTarget || uses[static_cast<size_t>(i.operands[0])] != 1) continue;
      size_t d = static_cast<size_t>(i.operands[0]);
      const stdlib::KernelOp* op = g_.insts[d].op == Op::Kernel ? stdlib::findKernelOp(g_.insts[d].name) : nullptr;
      if (op && stdlib::isDensity(op->conv) && active_[d]) {
        g_.insts[d].fused = true;
        i.fused = true;
      }
    }
  }

  ValueId remap(ValueId v, const std::vector<ValueId>& map) const {
    return v == ir::kNone ? ir::kNone : map[static_cast<size_t>(v)];
  }

  // A type whose dims are computed inside a loop names them as replayed there. (Its capacities
  // are computed before the function runs, and stay.)
  ir::VType remapType(ir::VType t, const std::vector<ValueId>& map) const {
    for (int d = 0; d < t.rank; ++d) t.dims[d] = remap(t.dims[d], map);
    return t;
  }

  // Adjoint buffers and views for the active values of [b, e) outside nested blocks (each block
  // defines its own, inside its reversed form).
  void defineAdjoints(size_t b, size_t e, const std::vector<ValueId>& map, std::vector<ValueId>& adj) {
    for (size_t k = b; k < e; ++k) {
      const Inst& i = fwd_.insts[k];
      if (opensBlock(i.op)) {
        k = end_[k];
        continue;
      }
      if (!active_[k] || g_.insts[k].fused || i.op == Op::Store) continue;
      Inst a;
      a.type = remapType(i.type, map);
      a.comment = "adjoint of %" + std::to_string(map[k]);
      switch (i.op) {
        case Op::Param:  // the adjoint of an input slice is the same slice of its gradient output
          a.op = Op::Param;
          a.input = gradientOf(i.input);
          a.operands = {remap(i.operands[0], map)};
          break;
        case Op::Element:  // a view of an active value: the same view of its adjoint
          a.op = Op::Element;
          a.operands = {adj[static_cast<size_t>(i.operands[0])], remap(i.operands[1], map)};
          break;
        case Op::Reshape:
          a.op = Op::Reshape;
          a.operands = {adj[static_cast<size_t>(i.operands[0])]};
          break;
        default:
          a.op = Op::Zero;
          break;
      }
      adj[k] = g_.add(a);
    }
  }

  // Copies the forward instructions of [b, e) with remapped operands, except `target +=` (the
  // forward pass added once) and nested blocks (their reversed forms replay
  // themselves).
  void replay(size_t b, size_t e, std::vector<ValueId>& map) {
    for (size_t k = b; k < e; ++k) {
      const Inst& orig = g_.insts[k];
      if (opensBlock(orig.op)) {
        k = end_[k];
        continue;
      }
      // A fused density is copied too (its flag keeps codegen from evaluating it forward): its
      // backward call reads the copy's operands.
      if (orig.op == Op::AddTarget || orig.op == Op::Print) continue;  // printed (or rejected) once
      Inst copy = orig;
      for (ValueId& a : copy.operands) a = remap(a, map);
      copy.type = remapType(orig.type, map);
      // A load reads back the copy this iteration saved (see compiler/lower/LowerAssign.cpp).
      if (orig.op == Op::Load) {
        copy.imm = 1;
        copy.operands.push_back(static_cast<ValueId>(k));
      }
      map[k] = g_.add(copy);
    }
  }

  void reverse(size_t b, size_t e, const std::vector<ValueId>& map, std::vector<ValueId>& adj) {
    for (size_t k = e; k-- > b;) {
      const Inst& i = fwd_.insts[k];
      if (i.op == Op::LoopEnd || i.op == Op::IfEnd) {
        size_t begin = static_cast<size_t>(i.operands[0]);
        if (i.op == Op::LoopEnd) reverseLoop(begin, k, map, adj);
        else reverseBranch(begin, k, map, adj);
        k = begin;
        continue;
      }
      backward(k, map, adj);
    }
  }

  void reverseLoop(size_t begin, size_t end, const std::vector<ValueId>& map, std::vector<ValueId>& adj) {
    if (!containsActive(begin, end)) return;
    const Inst& loop = fwd_.insts[begin];
    // The checker keeps latents out of while loops (FactorAssignment's kWhileRule).
    if (loop.imm == 2) throw std::logic_error("a while loop with parameter-dependent values reached the gradient");
    Inst r = ir::makeInst(Op::LoopBegin, loop.type, {remap(loop.operands[0], map), remap(loop.operands[1], map)});
    r.imm = 1;
    r.comment = loop.comment + " (reversed)";
    ValueId rev = g_.add(r);
    std::vector<ValueId> inner = map;
    inner[begin] = rev;
    replay(begin + 1, end, inner);
    std::vector<ValueId> innerAdj = adj;
    defineAdjoints(begin + 1, end, inner, innerAdj);
    reverse(begin + 1, end, inner, innerAdj);
    g_.add(ir::makeInst(Op::LoopEnd, loop.type, {rev}));
  }

  void reverseBranch(size_t begin, size_t end, const std::vector<ValueId>& map, std::vector<ValueId>& adj) {
    if (!containsActive(begin, end)) return;
    const Inst& branch = fwd_.insts[begin];
    ValueId rev = g_.add(ir::makeInst(Op::IfBegin, branch.type, {remap(branch.operands[0], map)}));
    size_t otherwise = else_[begin];
    size_t thenEnd = otherwise ? otherwise : end;
    auto reverseArm = [&](size_t b, size_t e) {
      std::vector<ValueId> inner = map;
      replay(b, e, inner);
      std::vector<ValueId> innerAdj = adj;
      defineAdjoints(b, e, inner, innerAdj);
      reverse(b, e, inner, innerAdj);
    };
    reverseArm(begin + 1, thenEnd);
    if (otherwise) {
      g_.add(ir::makeInst(Op::Else, branch.type, {rev}));
      reverseArm(otherwise + 1, end);
    }
    g_.add(ir::makeInst(Op::IfEnd, branch.type, {rev}));
  }

  bool containsActive(size_t begin, size_t end) const {
    for (size_t k = begin + 1; k < end; ++k)
      if (active_[k]) return true;
    return false;
  }

  // The derivative rule of forward instruction k, with operands and adjoints remapped.
  void backward(size_t k, const std::vector<ValueId>& map, const std::vector<ValueId>& adj) {
    const Inst& i = fwd_.insts[k];
    bool isTarget = i.op == Op::AddTarget;
    bool hasRule = i.op == Op::Kernel || i.op == Op::Store || i.op == Op::Load || i.op == Op::Var;
    if (!isTarget && !(hasRule && active_[k])) return;  // views and ints need no rule
    if (isTarget && g_.insts[k].fused) return;                      // folded into the density
    std::vector<ValueId> argAdj;
    bool needed = false;
    for (ValueId a : i.operands) {
      ValueId ad = a == ir::kNone ? ir::kNone : adj[static_cast<size_t>(a)];
      argAdj.push_back(ad);
      needed = needed || ad != ir::kNone;
    }
    if (!needed) return;
    Inst b;
    b.op = Op::Backward;
    b.type = remapType(i.type, map);
    b.name = i.name;
    b.imm = i.imm;
    b.operands = {map[k], adj[k]};
    b.operands.insert(b.operands.end(), argAdj.begin(), argAdj.end());
    b.comment = i.comment;
    b.fused = g_.insts[k].fused;
    g_.add(b);
  }

  const ir::Function& fwd_;
  ir::Function g_;
  std::vector<size_t> end_, else_;
  std::vector<bool> active_;
};

}  // namespace

ir::Function differentiate(const ir::Function& forward) { return Reverser(forward).run(); }

}  // namespace pvi

#include "compiler/ad/Reverse.hpp"

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

}  // namespace

ir::Function differentiate(const ir::Function& forward) {
  ir::Function g;
  g.name = forward.name + "_grad";
  g.insts = forward.insts;
  const size_t n = forward.insts.size();

  // Activity: a value is active when it depends on a parameter (and is real).
  std::vector<bool> active(n, false);
  for (size_t k = 0; k < n; ++k) {
    const Inst& i = forward.insts[k];
    if (i.op == Op::Param) {
      active[k] = true;
    } else if (i.op == Op::Kernel || i.op == Op::Element || i.op == Op::Reshape) {
      if (i.type.elem != ir::Elem::Real) continue;
      for (ValueId a : i.operands)
        if (a != ir::kNone && active[static_cast<size_t>(a)]) active[k] = true;
    }
  }

  // Densities used only by one `target +=` are fused into their backward call.
  std::vector<int> uses(n, 0);
  for (const Inst& i : forward.insts)
    for (ValueId a : i.operands)
      if (a != ir::kNone) ++uses[static_cast<size_t>(a)];
  for (size_t k = 0; k < n; ++k) {
    Inst& i = g.insts[k];
    if (i.op != Op::AddTarget || uses[static_cast<size_t>(i.operands[0])] != 1) continue;
    Inst& d = g.insts[static_cast<size_t>(i.operands[0])];
    const stdlib::KernelOp* op = d.op == Op::Kernel ? stdlib::findKernelOp(d.name) : nullptr;
    if (op && op->conv == stdlib::CallConv::Density && active[static_cast<size_t>(i.operands[0])]) {
      d.fused = true;
      i.fused = true;
    }
  }

  // Adjoints, in forward order so that a view's base adjoint exists before the view.
  std::vector<ValueId> adj(n, ir::kNone);
  for (size_t k = 0; k < n; ++k) {
    if (!active[k] || g.insts[k].fused) continue;  // a fused density's adjoint is the constant 1
    const Inst& i = forward.insts[k];
    Inst a;
    a.type = i.type;
    a.comment = "adjoint of %" + std::to_string(k);
    switch (i.op) {
      case Op::Param:  // the adjoint of an input slice is the same slice of its gradient output
        a.op = Op::Param;
        a.input = gradientOf(i.input);
        a.operands = i.operands;
        break;
      case Op::Element:  // views of an active value: the same view of its adjoint
        a.op = Op::Element;
        a.operands = {adj[static_cast<size_t>(i.operands[0])], i.operands[1]};
        break;
      case Op::Reshape:
        a.op = Op::Reshape;
        a.operands = {adj[static_cast<size_t>(i.operands[0])]};
        break;
      default:
        a.op = Op::Zero;
        break;
    }
    adj[k] = g.add(a);
  }

  // Backward instructions in reverse order. The adjoint of target is 1.
  for (size_t k = n; k-- > 0;) {
    const Inst& i = forward.insts[k];
    bool needed = false;
    std::vector<ValueId> argAdj;
    for (ValueId a : i.operands) {
      ValueId ad = a == ir::kNone ? ir::kNone : adj[static_cast<size_t>(a)];
      argAdj.push_back(ad);
      needed = needed || ad != ir::kNone;
    }
    if (!needed || (g.insts[k].op == Op::AddTarget && g.insts[k].fused)) continue;
    if (i.op == Op::AddTarget || (i.op == Op::Kernel && active[k])) {
      Inst b;
      b.op = Op::Backward;
      b.type = i.type;
      b.name = i.name;
      b.imm = i.imm;
      b.operands = {static_cast<ValueId>(k), adj[k]};
      b.operands.insert(b.operands.end(), argAdj.begin(), argAdj.end());
      b.comment = i.comment;
      b.fused = g.insts[k].fused;
      g.add(b);
    }
    // Element, Reshape and Param adjoints are views: nothing to propagate.
  }
  return g;
}

}  // namespace pvi

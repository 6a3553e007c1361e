#include "compiler/ir/Ir.hpp"

#include <ostream>

namespace pvi::ir {

namespace {

std::string value(ValueId v) { return "%" + std::to_string(v); }

std::string typeText(const VType& t) {
  std::string base = t.elem == Elem::Int ? "int" : "real";
  if (t.rank == 0) return base;
  std::string out = base + "[";
  for (int d = 0; d < t.rank; ++d)
    out += (d ? ", " : "") + value(t.dims[d]) + (t.cap[d] != kNone ? " <= " + value(t.cap[d]) : "");
  return out + "]";
}

const char* opName(Op op) {
  switch (op) {
    case Op::ConstInt: return "const";
    case Op::ConstReal: return "const";
    case Op::Data: return "data";
    case Op::Param: return "param";
    case Op::IntArith: return "int";
    case Op::IntExtreme: return "int";
    case Op::Compare: return "compare";
    case Op::ToReal: return "to_real";
    case Op::ToInt: return "to_int";
    case Op::Kernel: return "kernel";
    case Op::Rng: return "rng";
    case Op::Element: return "element";
    case Op::Reshape: return "reshape";
    case Op::Var: return "var";
    case Op::Store: return "store";
    case Op::Load: return "load";
    case Op::AddTarget: return "target +=";
    case Op::Output: return "output";
    case Op::Zero: return "zero";
    case Op::CheckData: return "check";
    case Op::CheckSize: return "check_size";
    case Op::Print: return "print";
    case Op::LoopBegin: return "loop";
    case Op::LoopEnd: return "end_loop";
    case Op::LoopExitUnless: return "exit_loop_unless";
    case Op::IfBegin: return "if";
    case Op::Else: return "else";
    case Op::IfEnd: return "end_if";
    case Op::Backward: return "backward";
  }
  return "?";
}

}  // namespace

void print(std::ostream& out, const Function& f) {
  out << "function " << f.name << " {\n";
  int depth = 1;
  for (size_t k = 0; k < f.insts.size(); ++k) {
    const Inst& i = f.insts[k];
    if (i.op == Op::LoopEnd || i.op == Op::IfEnd || i.op == Op::Else) --depth;
    out << std::string(static_cast<size_t>(depth) * 2, ' ');
    if (i.op == Op::LoopBegin || i.op == Op::IfBegin || i.op == Op::Else) ++depth;
    bool definesValue = i.op != Op::AddTarget && i.op != Op::Backward && i.op != Op::Output && i.op != Op::Store && i.op != Op::LoopEnd && i.op != Op::LoopExitUnless && i.op != Op::IfBegin &&
                        i.op != Op::Else && i.op != Op::IfEnd && i.op != Op::CheckData &&
                        i.op != Op::CheckSize && i.op != Op::Print;
    if (definesValue) out << value(static_cast<ValueId>(k)) << " = ";
    out << opName(i.op);
    switch (i.op) {
      case Op::ConstInt: out << ' ' << i.imm; break;
      case Op::ConstReal: out << ' ' << i.fimm; break;
      case Op::Data: out << (i.source == Source::Shared ? " shared" : " partition") << '#' << i.imm; break;
      case Op::Param: {
        static const char* names[] = {" z", " w", " theta", " grad_z", " grad_w", " grad_theta", " out"};
        out << names[static_cast<int>(i.input)];
        break;
      }
      case Op::IntArith:
      case Op::Compare:
      case Op::Kernel: out << ' ' << i.name; break;
      case Op::IntExtreme: out << (i.imm ? " max_of" : " min_of"); break;
      case Op::Rng: out << ' ' << i.name << " #" << i.imm; break;
      case Op::Print: out << ' ' << i.name; break;
      default: break;
    }
    if (i.op == Op::Kernel && i.name.rfind("tf_", 0) == 0) out << (i.imm ? " +jacobian" : "");
    if (i.op == Op::Kernel && !i.texts.empty()) {  // a fused element-wise tree, in postfix
      out << " [";
      for (size_t t = 0; t < i.texts.size(); ++t) out << (t ? " " : "") << i.texts[t];
      out << "]";
    }
    if (i.op == Op::LoopBegin && i.imm) out << (i.imm == 2 ? " while" : " reverse");
    if (i.op == Op::Load && i.imm) out << " saved";
    if (i.op == Op::CheckSize) out << " #" << i.imm;
    for (size_t a = 0; a < i.operands.size(); ++a)
      out << (a == 0 ? " " : ", ")
          << (i.operands[a] != kNone        ? value(i.operands[a])
              : a < i.texts.size() && i.op == Op::Print ? "\"" + i.texts[a] + "\""
                                                        : std::string("_"));
    if (definesValue) out << " : " << typeText(i.type);
    if (i.fused) out << " fused";
    if (!i.comment.empty()) out << "  ; " << i.comment;
    out << '\n';
  }
  out << "}\n";
}

}  // namespace pvi::ir

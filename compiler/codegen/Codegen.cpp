#include "compiler/codegen/Codegen.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <vector>

#include "compiler/codegen/AbiTypes.hpp"
#include "compiler/fuse/FuseElementwise.hpp"
#include "runtime/abi/factor_abi.h"
#include "stdlib/Ops.hpp"

namespace pvi {

namespace {

using ir::Elem;
using ir::Inst;
using ir::Op;
using ir::ValueId;
using stdlib::CallConv;

class Emitter {
 public:
  Emitter(llvm::Module& m, const ir::Function& f) : m_(m), f_(f), ctx_(m.getContext()), b_(ctx_) {
    for (const Inst& i : f_.insts) hasBackward_ = hasBackward_ || i.op == Op::Backward;
  }

  // pvi_dims_fn: void symbol(const void* const* shared, const void* const* partition, int64_t* out):
  // out = {dim z, dim w, dim theta}; returns nothing. Index errors cannot occur in sizes.
  void emitDims(const std::string& symbol) {
    kind_ = Kind::Sizes;
    create<pvi_dims_fn>(symbol, {"shared", "partition", "out"});
    entry_ = llvm::BasicBlock::Create(ctx_, "entry", fn_);
    b_.SetInsertPoint(entry_);
    size_t n = f_.insts.size();
    ints_.assign(n, nullptr);
    computeDepths();
    for (size_t k = 0; k < n; ++k) {
      const Inst& i = f_.insts[k];
      if (depth_[k] > 0) continue;  // sizes never come from inside a loop
      if (i.op == Op::ConstInt) ints_[k] = i64(i.imm);
      else if (i.op == Op::Data && i.type.elem == Elem::Int && i.type.rank == 0)
        ints_[k] = b_.CreateLoad(b_.getInt64Ty(), dataPointer(i), i.comment);
      else if (i.op == Op::IntArith && ready(i.operands[0]) && ready(i.operands[1]))
        ints_[k] = intArith(i);  // (arithmetic on computed ints is no size: it needs the function's values)
    }
    // An output function reports the length of its output in place of dim z.
    ir::ValueId dims[] = {f_.dimOut != ir::kNone ? f_.dimOut : f_.dimZ, f_.dimW, f_.dimTheta};
    for (int d = 0; d < 3; ++d) {
      llvm::Value* v = dims[d] == ir::kNone ? i64(0) : intOf(dims[d]);
      b_.CreateStore(v, b_.CreateConstGEP1_64(b_.getInt64Ty(), fn_->getArg(2), static_cast<uint64_t>(d)));
    }
    b_.CreateRetVoid();
  }

  // pvi_check_fn: double symbol(shared, partition, workspace, workspace_bytes, int64_t* status,
  // int64_t where[3])
  void emitCheck(const std::string& symbol) {
    kind_ = Kind::Check;
    create<pvi_check_fn>(symbol, {"shared", "partition", "workspace", "workspace_bytes", "status", "where"});
    entry_ = llvm::BasicBlock::Create(ctx_, "entry", fn_);
    b_.SetInsertPoint(entry_);
    target_ = b_.CreateAlloca(b_.getDoubleTy(), nullptr, "unused");
    b_.CreateStore(b_.getInt64(0), statusArg());
    size_t n = f_.insts.size();
    ints_.assign(n, nullptr);
    ptrs_.assign(n, nullptr);
    offsets_.assign(n, nullptr);
    sizePhase();
    computePhase();
    b_.CreateRet(f64(0.0));
  }

  // pvi_counts_fn: void symbol(shared, partition, int64_t* counts): the number of elements every
  // data variable of `source` must have, by its index in the block.
  void emitCounts(const std::string& symbol, ir::Source source) {
    kind_ = Kind::Sizes;
    create<pvi_counts_fn>(symbol, {"shared", "partition", "counts"});
    entry_ = llvm::BasicBlock::Create(ctx_, "entry", fn_);
    b_.SetInsertPoint(entry_);
    size_t n = f_.insts.size();
    ints_.assign(n, nullptr);
    computeDepths();
    for (size_t k = 0; k < n; ++k) {
      const Inst& i = f_.insts[k];
      if (depth_[k] > 0) continue;  // sizes never come from inside a loop
      if (i.op == Op::ConstInt) ints_[k] = i64(i.imm);
      else if (i.op == Op::IntArith && ready(i.operands[0]) && ready(i.operands[1])) ints_[k] = intArith(i);
      if (i.op != Op::Data) continue;
      if (i.type.elem == Elem::Int && i.type.rank == 0) ints_[k] = b_.CreateLoad(b_.getInt64Ty(), dataPointer(i), i.comment);
      if (i.source == source)
        b_.CreateStore(count(i.type), b_.CreateConstGEP1_64(b_.getInt64Ty(), fn_->getArg(2), static_cast<uint64_t>(i.imm)));
    }
    b_.CreateRetVoid();
  }

  // pvi_output_fn: double symbol(z, w, theta, shared, partition, double* out, workspace, bytes,
  // int64_t* status); generate functions (pvi_generate_fn) add pvi_rng* rng.
  void emitOutput(const std::string& symbol, bool generate) {
    kind_ = Kind::Output;
    if (generate)
      create<pvi_generate_fn>(symbol, {"z", "w", "theta", "shared", "partition", "out", "workspace",
                                       "workspace_bytes", "status", "rng"});
    else
      create<pvi_output_fn>(symbol, {"z", "w", "theta", "shared", "partition", "out", "workspace", "workspace_bytes",
                                     "status"});
    entry_ = llvm::BasicBlock::Create(ctx_, "entry", fn_);
    b_.SetInsertPoint(entry_);
    target_ = b_.CreateAlloca(b_.getDoubleTy(), nullptr, "unused");
    b_.CreateStore(f64(0.0), target_);
    b_.CreateStore(b_.getInt64(0), statusArg());
    size_t n = f_.insts.size();
    ints_.assign(n, nullptr);
    ptrs_.assign(n, nullptr);
    offsets_.assign(n, nullptr);
    sizePhase();
    computePhase();
    b_.CreateRet(f64(0.0));
  }

  // pvi_factor_fn (see Codegen.hpp).
  void emit(const std::string& symbol) {
    create<pvi_factor_fn>(symbol, {"z", "w", "theta", "shared", "partition", "grad_z", "grad_w", "grad_theta",
                                   "workspace", "workspace_bytes", "status"});
    fn_->addFnAttr(llvm::Attribute::NoUnwind);

    entry_ = llvm::BasicBlock::Create(ctx_, "entry", fn_);
    b_.SetInsertPoint(entry_);
    target_ = b_.CreateAlloca(b_.getDoubleTy(), nullptr, "target");
    b_.CreateStore(llvm::ConstantFP::get(b_.getDoubleTy(), 0.0), target_);
    b_.CreateStore(b_.getInt64(0), statusArg());

    size_t n = f_.insts.size();
    ints_.assign(n, nullptr);
    ptrs_.assign(n, nullptr);
    offsets_.assign(n, nullptr);
    sizePhase();
    computePhase();
    b_.CreateRet(b_.CreateLoad(b_.getDoubleTy(), target_));
  }

 private:
  // Creates the function `symbol` with the ABI's type Fn (runtime/abi/factor_abi.h) and names
  // its arguments.
  template <class Fn>
  void create(const std::string& symbol, std::initializer_list<const char*> names) {
    llvm::FunctionType* fty = abi::functionType<Fn>(ctx_);
    if (names.size() != fty->getNumParams()) throw std::logic_error("argument names of " + symbol);
    fn_ = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, symbol, m_);
    unsigned k = 0;
    for (const char* name : names) fn_->getArg(k++)->setName(name);
  }

  llvm::Value* arg(unsigned k) { return fn_->getArg(k); }
  // Argument positions of each kind of function (see Codegen.hpp): factor functions, data
  // checks, output functions, and the size functions (dims, counts, output sizes), whose
  // arguments are (shared, partition, out).
  enum class Kind { Factor, Check, Output, Sizes };
  Kind kind_ = Kind::Factor;
  llvm::Value* statusArg() { return arg(kind_ == Kind::Check ? 4 : kind_ == Kind::Output ? 8 : 10); }
  llvm::Value* workspaceArg() { return arg(kind_ == Kind::Check ? 2 : kind_ == Kind::Output ? 6 : 8); }
  llvm::Value* workspaceBytesArg() { return arg(kind_ == Kind::Check ? 3 : kind_ == Kind::Output ? 7 : 9); }
  const Inst& at(ValueId v) const { return f_.insts[static_cast<size_t>(v)]; }
  llvm::Value* intOf(ValueId v) { return ints_[static_cast<size_t>(v)]; }
  llvm::Value* ptrOf(ValueId v) { return v == ir::kNone ? nullPtr() : ptrs_[static_cast<size_t>(v)]; }
  llvm::Value* nullPtr() { return llvm::ConstantPointerNull::get(b_.getPtrTy()); }
  llvm::Value* i64(int64_t v) { return b_.getInt64(static_cast<uint64_t>(v)); }
  llvm::Value* f64(double v) { return llvm::ConstantFP::get(b_.getDoubleTy(), v); }

  // The number of elements of a value of type t (its dims now), or of the buffer it is allocated
  // in (capacity: its capacity where its size changes inside a loop).
  static ValueId capacityDim(const ir::VType& t, int d) { return t.cap[d] != ir::kNone ? t.cap[d] : t.dims[d]; }
  llvm::Value* elements(const ir::VType& t, bool capacity) {
    if (t.rank == 0) return i64(1);
    llvm::Value* n = intOf(capacity ? capacityDim(t, 0) : t.dims[0]);
    for (int d = 1; d < t.rank; ++d) n = b_.CreateMul(n, intOf(capacity ? capacityDim(t, d) : t.dims[d]));
    return n;
  }
  llvm::Value* count(const ir::VType& t) { return elements(t, false); }
  llvm::Value* capacity(const ir::VType& t) { return elements(t, true); }

  // Leaves the function with NaN and `code` in *status when `failed` holds.
  // The status of a failing index check of instruction i: naming its statement when it has one.
  llvm::Value* indexStatus(const Inst& i) {
    return i64(i.site >= 0 ? PVI_STATUS_INDEX_OUT_OF_RANGE_AT(i.site) : PVI_STATUS_INDEX_OUT_OF_RANGE);
  }

  void failIf(llvm::Value* failed, llvm::Value* code) {
    auto* bad = llvm::BasicBlock::Create(ctx_, "fail", fn_);
    auto* ok = llvm::BasicBlock::Create(ctx_, "ok", fn_);
    b_.CreateCondBr(failed, bad, ok, llvm::MDBuilder(ctx_).createBranchWeights(1, 1000));
    b_.SetInsertPoint(bad);
    b_.CreateStore(code, statusArg());
    b_.CreateRet(f64(std::numeric_limits<double>::quiet_NaN()));
    b_.SetInsertPoint(ok);
  }

  static bool needsBuffer(const Inst& i) {
    switch (i.op) {
      case Op::ConstReal:
      case Op::ToReal:
      case Op::Kernel:
      case Op::Rng:
      case Op::Var:
      case Op::Zero: return true;
      case Op::Load: return i.imm == 0;  // a replayed load views the forward load's copy
      default: return false;
    }
  }

  // A load inside loops of a gradient function keeps one copy per iteration (its slots).
  bool slotted(const Inst& i) const { return hasBackward_ && i.op == Op::Load && i.operands[1] != ir::kNone; }

  llvm::Value* dataPointer(const Inst& i) {
    // In factor and output functions the data tables are arguments 3 and 4; elsewhere 0 and 1.
    bool first = kind_ == Kind::Check || kind_ == Kind::Sizes;
    llvm::Value* table = arg(i.source == ir::Source::Shared ? (first ? 0 : 3) : (first ? 1 : 4));
    llvm::Value* slot = b_.CreateConstGEP1_64(b_.getPtrTy(), table, static_cast<uint64_t>(i.imm));
    return b_.CreateLoad(b_.getPtrTy(), slot, i.comment);
  }

  // Nesting depth of every instruction inside loops and branches.
  void computeDepths() {
    depth_.assign(f_.insts.size(), 0);
    int d = 0;
    for (size_t k = 0; k < f_.insts.size(); ++k) {
      Op op = f_.insts[k].op;
      if (op == Op::LoopEnd || op == Op::IfEnd) --d;
      depth_[k] = op == Op::Else ? d - 1 : d;
      if (op == Op::LoopBegin || op == Op::IfBegin) ++d;
    }
  }

  // An int value or index check, emitted where it stands (top level: in phase 1; inside loops and
  // branches: in phase 2, where the loop variable exists).
  void intInstruction(size_t k) {
    const Inst& i = f_.insts[k];
    done_[k] = true;
    switch (i.op) {
      case Op::ConstInt: ints_[k] = i64(i.imm); break;
      case Op::Data:
        if (i.type.elem == Elem::Int && i.type.rank == 0) ints_[k] = b_.CreateLoad(b_.getInt64Ty(), dataPointer(i), i.comment);
        break;
      case Op::IntArith: ints_[k] = intArith(i); break;
      case Op::IntExtreme: {
        const Inst& data = at(i.operands[0]);
        ints_[k] = call("pvi_int_extreme", b_.getInt64Ty(), {count(data.type), dataPointer(data), i64(i.imm)});
        break;
      }
      case Op::Compare: ints_[k] = compare(i); break;
      case Op::Element: {
        // 1 <= index <= length of the indexed (last) dimension.
        const Inst& base = at(i.operands[0]);
        llvm::Value* len = intOf(base.type.dims[base.type.rank - 1]);
        llvm::Value* idx = intOf(i.operands[1]);
        llvm::Value* bad = b_.CreateOr(b_.CreateICmpSLT(idx, i64(1)), b_.CreateICmpSGT(idx, len));
        failIf(bad, indexStatus(i));
        if (i.type.elem == Elem::Int && i.type.rank == 0) {  // an int element is a value
          llvm::Value* from = base.op == Op::Data ? dataPointer(base) : ptrOf(i.operands[0]);
          llvm::Value* p = b_.CreateGEP(b_.getInt64Ty(), from, b_.CreateSub(idx, i64(1)));
          ints_[k] = b_.CreateLoad(b_.getInt64Ty(), p);
        }
        break;
      }
      default: break;
    }
  }

  // Int or real scalar operand as a double, for comparisons.
  llvm::Value* scalarAsDouble(ValueId v) {
    const Inst& i = at(v);
    if (i.type.elem == Elem::Int) return b_.CreateSIToFP(intOf(v), b_.getDoubleTy());
    return load(ptrOf(v));
  }

  llvm::Value* compare(const Inst& i) {
    const std::string& op = i.name;
    auto asInt = [&](llvm::Value* c) { return b_.CreateZExt(c, b_.getInt64Ty()); };
    if (op == "!") return asInt(b_.CreateICmpEQ(intOf(i.operands[0]), i64(0)));
    if (op == "&&" || op == "||") {
      llvm::Value* a = b_.CreateICmpNE(intOf(i.operands[0]), i64(0));
      llvm::Value* c = b_.CreateICmpNE(intOf(i.operands[1]), i64(0));
      return asInt(op == "&&" ? b_.CreateAnd(a, c) : b_.CreateOr(a, c));
    }
    bool ints = at(i.operands[0]).type.elem == Elem::Int && at(i.operands[1]).type.elem == Elem::Int;
    if (ints) {
      llvm::Value *a = intOf(i.operands[0]), *c = intOf(i.operands[1]);
      llvm::CmpInst::Predicate p = op == "<"    ? llvm::CmpInst::ICMP_SLT
                                   : op == "<=" ? llvm::CmpInst::ICMP_SLE
                                   : op == ">"  ? llvm::CmpInst::ICMP_SGT
                                   : op == ">=" ? llvm::CmpInst::ICMP_SGE
                                   : op == "==" ? llvm::CmpInst::ICMP_EQ
                                                : llvm::CmpInst::ICMP_NE;
      return asInt(b_.CreateICmp(p, a, c));
    }
    llvm::Value *a = scalarAsDouble(i.operands[0]), *c = scalarAsDouble(i.operands[1]);
    llvm::CmpInst::Predicate p = op == "<"    ? llvm::CmpInst::FCMP_OLT
                                 : op == "<=" ? llvm::CmpInst::FCMP_OLE
                                 : op == ">"  ? llvm::CmpInst::FCMP_OGT
                                 : op == ">=" ? llvm::CmpInst::FCMP_OGE
                                 : op == "==" ? llvm::CmpInst::FCMP_OEQ
                                              : llvm::CmpInst::FCMP_UNE;
    return asInt(b_.CreateFCmp(p, a, c));
  }

  bool ready(ValueId v) { return v == ir::kNone || intOf(v) != nullptr; }

  // Computed in phase 1: constants, int data and arithmetic on them at any depth (the sizes of
  // buffers inside loops), and at the top level the index checks and comparisons of those.
  // This includes everything compiler/lower treats as static (FunctionLowerer::isStatic).
  bool firstPhase(size_t k) {
    const Inst& i = f_.insts[k];
    switch (i.op) {
      case Op::ConstInt: return true;
      case Op::Data: return i.type.elem == Elem::Int && i.type.rank == 0;
      case Op::IntArith: return ready(i.operands[0]) && ready(i.operands[1]);
      case Op::IntExtreme: {
        const Inst& data = at(i.operands[0]);
        for (int d = 0; d < data.type.rank; ++d)
          if (!ready(data.type.dims[d])) return false;
        return true;
      }
      case Op::Compare:
        for (ValueId a : i.operands)
          if (at(a).type.elem != Elem::Int || !ready(a)) return false;
        return depth_[k] == 0;
      case Op::Element: {
        const Inst& base = at(i.operands[0]);
        bool viewOrData = !(i.type.elem == Elem::Int && i.type.rank == 0) || base.op == Op::Data;
        return depth_[k] == 0 && viewOrData && ready(i.operands[1]) && ready(base.type.dims[base.type.rank - 1]);
      }
      default: return false;
    }
  }

  // Phase 1: the ints above, and the workspace each buffer needs. A buffer inside a loop is
  // reused by every iteration, so its size must not depend on the loop (the lowering refuses
  // such sizes with a positioned message; this is the backstop).
  void sizePhase() {
    computeDepths();
    done_.assign(f_.insts.size(), false);
    llvm::Value* total = i64(0);
    for (size_t k = 0; k < f_.insts.size(); ++k) {
      const Inst& i = f_.insts[k];
      if (firstPhase(k)) intInstruction(k);
      if (needsBuffer(i)) {
        for (int d = 0; d < i.type.rank; ++d)
          if (intOf(capacityDim(i.type, d)) == nullptr)
            throw std::runtime_error("a size that changes inside a loop has no capacity");
        if (slotted(i) && intOf(i.operands[2]) == nullptr)
          throw std::runtime_error("a number of loop iterations that changes inside a loop");
        offsets_[k] = total;
        llvm::Value* bytes = b_.CreateMul(capacity(i.type), i64(8));
        if (slotted(i)) bytes = b_.CreateMul(bytes, intOf(i.operands[2]));
        total = b_.CreateAdd(total, bytes);
      }
    }
    failIf(b_.CreateICmpSGT(total, workspaceBytesArg()), total);
  }

  // A size that changes inside a loop must lie in [0, its capacity]: a negative size (vector[j - 2]
  // at j = 1), or a capacity the lowering's bounds got wrong (an int overflow), stops the function
  // with an index error at the statement instead of writing past the buffer.
  void checkCapacity(const Inst& i) {
    llvm::Value* bad = nullptr;
    for (int d = 0; d < i.type.rank; ++d) {
      if (i.type.cap[d] == ir::kNone) continue;
      llvm::Value* n = intOf(i.type.dims[d]);
      llvm::Value* out = b_.CreateOr(b_.CreateICmpSLT(n, i64(0)), b_.CreateICmpSGT(n, intOf(i.type.cap[d])));
      bad = bad ? b_.CreateOr(bad, out) : out;
    }
    if (bad) failIf(bad, indexStatus(i));
  }

  llvm::Value* intArith(const Inst& i) {
    llvm::Value* a = intOf(i.operands[0]);
    llvm::Value* c = intOf(i.operands[1]);
    if (i.name == "+") return b_.CreateAdd(a, c);
    if (i.name == "-") return b_.CreateSub(a, c);
    if (i.name == "*") return b_.CreateMul(a, c);
    if (i.name == "max") return b_.CreateSelect(b_.CreateICmpSGT(a, c), a, c);
    if (i.name == "min") return b_.CreateSelect(b_.CreateICmpSLT(a, c), a, c);
    // Integer division and modulus by zero give 0 instead of trapping.
    llvm::Value* zero = b_.CreateICmpEQ(c, i64(0));
    llvm::Value* safe = b_.CreateSelect(zero, i64(1), c);
    llvm::Value* r = i.name == "/" ? b_.CreateSDiv(a, safe) : b_.CreateSRem(a, safe);
    return b_.CreateSelect(zero, i64(0), r);
  }

  // Phase 2: pointers and kernel calls.
  void computePhase() {
    for (size_t k = 0; k < f_.insts.size(); ++k) {
      const Inst& i = f_.insts[k];
      if (needsBuffer(i)) {
        ptrs_[k] = b_.CreateGEP(b_.getInt8Ty(), workspaceArg(), offsets_[k]);
        checkCapacity(i);
      }
      if (!done_[k]) intInstruction(k);
      switch (i.op) {
        case Op::LoopBegin: loopBegin(k, i); break;
        case Op::LoopEnd: loopEnd(); break;
        case Op::LoopExitUnless: loopExitUnless(i); break;
        case Op::IfBegin: ifBegin(i); break;
        case Op::Else: ifElse(); break;
        case Op::IfEnd: ifEnd(); break;
        case Op::ConstReal: b_.CreateStore(f64(i.fimm), ptrs_[k]); break;
        case Op::ToInt: ints_[k] = b_.CreateFPToSI(load(ptrOf(i.operands[0])), b_.getInt64Ty()); break;
        case Op::ToReal:
          if (at(i.operands[0]).type.rank == 0) {
            b_.CreateStore(b_.CreateSIToFP(intOf(i.operands[0]), b_.getDoubleTy()), ptrs_[k]);
          } else {  // an int array, element by element
            llvm::Value* from = ptrOf(i.operands[0]);
            llvm::Value* to = ptrs_[k];
            forEach(count(i.type), [&](llvm::Value* j) {
              llvm::Value* x = b_.CreateLoad(b_.getInt64Ty(), b_.CreateGEP(b_.getInt64Ty(), from, j));
              b_.CreateStore(b_.CreateSIToFP(x, b_.getDoubleTy()), b_.CreateGEP(b_.getDoubleTy(), to, j));
            });
          }
          break;
        case Op::Data:
          if (!(i.type.elem == Elem::Int && i.type.rank == 0)) ptrs_[k] = dataPointer(i);
          break;
        case Op::Param: {
          static const unsigned argIndex[] = {0, 1, 2, 5, 6, 7, 5};
          ptrs_[k] = b_.CreateGEP(b_.getDoubleTy(), arg(argIndex[static_cast<int>(i.input)]), intOf(i.operands[0]));
          if (i.input == ir::Input::GradZ || i.input == ir::Input::GradW || i.input == ir::Input::GradTheta)
            b_.CreateMemSet(ptrs_[k], b_.getInt8(0), b_.CreateMul(count(i.type), i64(8)), llvm::MaybeAlign(8));
          break;
        }
        case Op::Element: {
          const Inst& base = at(i.operands[0]);
          // An int element of data is a value only (intInstruction); of a Var it is also the
          // place a Store writes.
          if (i.type.elem == Elem::Int && i.type.rank == 0 && base.op == Op::Data) break;
          llvm::Value* stride = i64(1);
          for (int d = 0; d + 1 < base.type.rank; ++d) stride = b_.CreateMul(stride, intOf(base.type.dims[d]));
          llvm::Value* offset = b_.CreateMul(b_.CreateSub(intOf(i.operands[1]), i64(1)), stride);
          ptrs_[k] = b_.CreateGEP(b_.getDoubleTy(), ptrOf(i.operands[0]), offset);  // 8-byte elements
          break;
        }
        case Op::Var: var(k, i); break;
        case Op::Store: store(i); break;
        case Op::Load: loadValue(k, i); break;
        case Op::Reshape: ptrs_[k] = ptrOf(i.operands[0]); break;
        case Op::CheckData: checkData(i); break;
        case Op::CheckSize: checkSize(i); break;
        case Op::Print: printStatement(i); break;
        case Op::Zero:
          b_.CreateMemSet(ptrs_[k], b_.getInt8(0), b_.CreateMul(count(i.type), i64(8)), llvm::MaybeAlign(8));
          break;
        case Op::AddTarget:
          if (!i.fused) addTarget(load(ptrOf(i.operands[0])), i.site);
          break;
        case Op::Output: {
          llvm::Value* dest = b_.CreateGEP(b_.getDoubleTy(), arg(5), intOf(i.operands[1]));
          const Inst& v = at(i.operands[0]);
          if (v.type.elem == Elem::Int && v.type.rank == 0) {  // an int quantity, written as a double
            b_.CreateStore(b_.CreateSIToFP(intOf(i.operands[0]), b_.getDoubleTy()), dest);
          } else if (v.type.elem == Elem::Int) {
            llvm::Value* from = ptrOf(i.operands[0]);
            forEach(count(v.type), [&](llvm::Value* j) {
              llvm::Value* x = b_.CreateLoad(b_.getInt64Ty(), b_.CreateGEP(b_.getInt64Ty(), from, j));
              b_.CreateStore(b_.CreateSIToFP(x, b_.getDoubleTy()), b_.CreateGEP(b_.getDoubleTy(), dest, j));
            });
          } else {
            b_.CreateMemCpy(dest, llvm::MaybeAlign(8), ptrOf(i.operands[0]), llvm::MaybeAlign(8),
                            b_.CreateMul(count(v.type), i64(8)));
          }
          break;
        }
        case Op::Kernel:
          if (!i.fused) kernel(k, i, false);
          break;
        case Op::Rng: rng(k, i); break;
        case Op::Backward: {
          const Inst& fwd = at(i.operands[0]);
          if (fwd.op == Op::AddTarget) {  // d target / d value = 1
            llvm::Value* g = ptrOf(i.operands[2]);
            b_.CreateStore(b_.CreateFAdd(load(g), f64(1.0)), g);
          } else if (fwd.op == Op::Store) {
            storeBackward(fwd, i);
          } else if (fwd.op == Op::Load || fwd.op == Op::Var) {  // the adjoint flows to the source
            if (i.operands[2] != ir::kNone) addInto(count(fwd.type), ptrOf(i.operands[1]), ptrOf(i.operands[2]));
          } else {
            kernel(static_cast<size_t>(i.operands[0]), fwd, true, &i);
          }
          break;
        }
        default: break;
      }
    }
  }

  llvm::Value* load(llvm::Value* p) { return b_.CreateLoad(b_.getDoubleTy(), p); }

  // Emits body(j) for j = 0 .. n-1.
  template <class F>
  void forEach(llvm::Value* n, F body) {
    llvm::BasicBlock* before = b_.GetInsertBlock();
    auto* head = llvm::BasicBlock::Create(ctx_, "each", fn_);
    auto* inside = llvm::BasicBlock::Create(ctx_, "each.body", fn_);
    auto* done = llvm::BasicBlock::Create(ctx_, "each.done", fn_);
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::PHINode* j = b_.CreatePHI(b_.getInt64Ty(), 2);
    j->addIncoming(i64(0), before);
    b_.CreateCondBr(b_.CreateICmpSLT(j, n), inside, done);
    b_.SetInsertPoint(inside);
    body(j);
    j->addIncoming(b_.CreateAdd(j, i64(1)), b_.GetInsertBlock());
    b_.CreateBr(head);
    b_.SetInsertPoint(done);
  }

  void copyBytes(llvm::Value* to, llvm::Value* from, llvm::Value* n) {
    b_.CreateMemMove(to, llvm::MaybeAlign(8), from, llvm::MaybeAlign(8), b_.CreateMul(n, i64(8)));
  }

  // g_to[j] += g_from[j] for n elements.
  void addInto(llvm::Value* n, llvm::Value* from, llvm::Value* to) {
    call("pvi_copy_grad", b_.getVoidTy(), {n, from, to});
  }

  // A Var: its initial value, or NaN (all bits set) for reals and 0 for ints.
  void var(size_t k, const Inst& i) {
    ValueId init = i.operands[0];
    llvm::Value* n = count(i.type);
    if (init == ir::kNone) {
      b_.CreateMemSet(ptrs_[k], b_.getInt8(i.type.elem == Elem::Real ? 0xFF : 0), b_.CreateMul(n, i64(8)),
                      llvm::MaybeAlign(8));
    } else if (at(init).type.elem == Elem::Int && at(init).type.rank == 0 && i.type.rank > 0) {
      call("pvi_fill_int", b_.getVoidTy(), {n, intOf(init), ptrs_[k]});  // every element: rep_array(0, n)
    } else if (at(init).type.elem == Elem::Int && at(init).type.rank == 0) {
      b_.CreateStore(intOf(init), ptrs_[k]);
    } else {
      copyBytes(ptrs_[k], ptrOf(init), n);
    }
  }

  // Stan's print, reject and fatal_error (stdlib/kernels/arith/print.cpp): the pieces go to a
  // per-thread line that pvi_print_end writes; reject and fatal_error then leave the function.
  void printStatement(const Inst& i) {
    llvm::Type* v = b_.getVoidTy();
    call("pvi_print_begin", v, {});
    for (size_t a = 0; a < i.operands.size(); ++a) {
      const ValueId op = i.operands[a];
      if (op == ir::kNone) {
        call("pvi_print_text", v, {b_.CreateGlobalString(i.texts[a], "print_text", 0, &m_)});
        continue;
      }
      const ir::VType& t = at(op).type;
      if (t.elem == Elem::Int && t.rank == 0) call("pvi_print_int", v, {intOf(op)});
      else if (t.elem == Elem::Int) call("pvi_print_ints", v, {count(t), intPointer(op), i64(t.rank)});
      else call("pvi_print_reals", v, {count(t), ptrOf(op), i64(t.rank)});
    }
    const int64_t kind = i.name == "reject" ? 1 : i.name == "fatal_error" ? 2 : 0;
    call("pvi_print_end", v, {i64(kind)});
    if (kind == 1) failIf(b_.getTrue(), i64(PVI_STATUS_REJECT));
    if (kind == 2) failIf(b_.getTrue(), i64(PVI_STATUS_FATAL_ERROR));
  }

  void store(const Inst& i) {
    ValueId dst = i.operands[0], src = i.operands[1];
    const Inst& value = at(src);
    bool intScalar = value.type.elem == Elem::Int && value.type.rank == 0;
    if (i.operands.size() > 2) {
      llvm::Value* from = intScalar ? intPointer(src) : ptrOf(src);
      std::vector<llvm::Value*> args = subscriptArgs(at(dst).type, i.operands, 2);
      args.push_back(from);
      args.push_back(ptrOf(dst));
      llvm::Value* st = call("pvi_subscript_store", b_.getInt64Ty(), args);
      failIf(b_.CreateICmpNE(st, i64(0)), indexStatus(i));
    } else if (intScalar) {
      b_.CreateStore(intOf(src), ptrOf(dst));
    } else {
      copyBytes(ptrOf(dst), ptrOf(src), count(at(dst).type));
    }
  }

  // The adjoint of the overwritten part moves to the stored value, and is cleared.
  void storeBackward(const Inst& fwd, const Inst& bw) {
    llvm::Value* gDst = ptrOf(bw.operands[2]);
    llvm::Value* gSrc = bw.operands.size() > 3 ? ptrOf(bw.operands[3]) : nullPtr();
    if (fwd.operands.size() > 2) {
      std::vector<llvm::Value*> args = subscriptArgs(at(fwd.operands[0]).type, fwd.operands, 2);
      args.push_back(gDst);
      args.push_back(gSrc);
      call("pvi_subscript_store_grad", b_.getVoidTy(), args);
      return;
    }
    llvm::Value* n = count(at(fwd.operands[0]).type);
    if (bw.operands.size() > 3 && bw.operands[3] != ir::kNone) addInto(n, gDst, gSrc);
    b_.CreateMemSet(gDst, b_.getInt8(0), b_.CreateMul(n, i64(8)), llvm::MaybeAlign(8));
  }

  // A load copies its source now; in a gradient function, inside loops, into this iteration's
  // slot. A replayed load (imm = 1) reads the slot its forward load filled.
  void loadValue(size_t k, const Inst& i) {
    bool intScalar = i.type.elem == Elem::Int && i.type.rank == 0;
    llvm::Value* n = count(i.type);
    llvm::Value* slot;
    if (i.imm) slot = b_.CreateGEP(b_.getInt8Ty(), workspaceArg(), offsets_[static_cast<size_t>(i.operands[3])]);
    else slot = ptrs_[k];
    if (slotted(i)) slot = b_.CreateGEP(b_.getDoubleTy(), slot, b_.CreateMul(intOf(i.operands[1]), capacity(i.type)));
    ptrs_[k] = slot;
    if (i.imm) {
      if (intScalar) ints_[k] = b_.CreateLoad(b_.getInt64Ty(), slot);
      return;
    }
    if (intScalar) {
      ints_[k] = b_.CreateLoad(b_.getInt64Ty(), ptrOf(i.operands[0]));
      b_.CreateStore(ints_[k], slot);
    } else {
      copyBytes(slot, ptrOf(i.operands[0]), n);
    }
  }

  // (r, dims, spec, lists) of a general subscript of a value of type t: two operands per
  // dimension from ops[first] on (see `subscript` in arith.h), in stack arrays.
  std::vector<llvm::Value*> subscriptArgs(const ir::VType& t, const std::vector<ValueId>& ops, size_t first) {
    llvm::IRBuilder<> entry(entry_, entry_->begin());
    auto* r = i64(t.rank);
    llvm::Value* dims = entry.CreateAlloca(b_.getInt64Ty(), i64(t.rank));
    llvm::Value* spec = entry.CreateAlloca(b_.getInt64Ty(), i64(3 * t.rank));
    llvm::Value* lists = entry.CreateAlloca(b_.getPtrTy(), i64(t.rank));
    auto put = [&](llvm::Value* array, llvm::Type* ty, int at, llvm::Value* v) {
      b_.CreateStore(v, b_.CreateConstGEP1_64(ty, array, static_cast<uint64_t>(at)));
    };
    for (int d = 0; d < t.rank; ++d) {
      put(dims, b_.getInt64Ty(), d, intOf(t.dims[d]));
      ValueId a = ops[first + 2 * static_cast<size_t>(d)], c = ops[first + 2 * static_cast<size_t>(d) + 1];
      int64_t kind = a == ir::kNone ? 0 : at(a).type.rank == 1 ? 3 : c == ir::kNone ? 1 : 2;
      put(spec, b_.getInt64Ty(), 3 * d, i64(kind));
      put(spec, b_.getInt64Ty(), 3 * d + 1, kind == 1 || kind == 2 ? intOf(a) : i64(0));
      put(spec, b_.getInt64Ty(), 3 * d + 2, kind == 2 ? intOf(c) : kind == 3 ? count(at(a).type) : i64(0));
      put(lists, b_.getPtrTy(), d, kind == 3 ? ptrOf(a) : nullPtr());
    }
    return {r, dims, spec, lists};
  }

  struct Loop {
    llvm::PHINode* index;
    llvm::BasicBlock* header;
    llvm::BasicBlock* exit;
    bool reverse;
  };
  struct Branch {
    llvm::BasicBlock* otherwise;
    llvm::BasicBlock* merge;
    bool sawElse;
  };

  void loopBegin(size_t k, const Inst& i) {
    bool reverse = i.imm == 1;  // imm = 2: a while loop, forwards
    llvm::Value* lo = intOf(i.operands[0]);
    llvm::Value* hi = intOf(i.operands[1]);
    llvm::BasicBlock* before = b_.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(ctx_, "loop", fn_);
    auto* body = llvm::BasicBlock::Create(ctx_, "loop.body", fn_);
    auto* exit = llvm::BasicBlock::Create(ctx_, "loop.exit", fn_);
    b_.CreateBr(header);
    b_.SetInsertPoint(header);
    llvm::PHINode* index = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
    index->addIncoming(reverse ? hi : lo, before);
    b_.CreateCondBr(reverse ? b_.CreateICmpSGE(index, lo) : b_.CreateICmpSLE(index, hi), body, exit);
    b_.SetInsertPoint(body);
    ints_[k] = index;
    loops_.push_back({index, header, exit, reverse});
  }

  void loopEnd() {
    Loop l = loops_.back();
    loops_.pop_back();
    llvm::Value* next = l.reverse ? b_.CreateSub(l.index, i64(1)) : b_.CreateAdd(l.index, i64(1));
    l.index->addIncoming(next, b_.GetInsertBlock());
    b_.CreateBr(l.header);
    b_.SetInsertPoint(l.exit);
  }

  // A while loop's test: on to the rest of the body when the condition holds, else out of the loop.
  void loopExitUnless(const Inst& i) {
    auto* rest = llvm::BasicBlock::Create(ctx_, "while.body", fn_);
    b_.CreateCondBr(b_.CreateICmpNE(intOf(i.operands[0]), i64(0)), rest, loops_.back().exit);
    b_.SetInsertPoint(rest);
  }

  void ifBegin(const Inst& i) {
    auto* then = llvm::BasicBlock::Create(ctx_, "then", fn_);
    auto* otherwise = llvm::BasicBlock::Create(ctx_, "else", fn_);
    auto* merge = llvm::BasicBlock::Create(ctx_, "endif", fn_);
    b_.CreateCondBr(b_.CreateICmpNE(intOf(i.operands[0]), i64(0)), then, otherwise);
    b_.SetInsertPoint(then);
    branches_.push_back({otherwise, merge, false});
  }

  void ifElse() {
    Branch& br = branches_.back();
    b_.CreateBr(br.merge);
    b_.SetInsertPoint(br.otherwise);
    br.sawElse = true;
  }

  void ifEnd() {
    Branch br = branches_.back();
    branches_.pop_back();
    b_.CreateBr(br.merge);
    if (!br.sawElse) {
      b_.SetInsertPoint(br.otherwise);
      b_.CreateBr(br.merge);
    }
    b_.SetInsertPoint(br.merge);
  }

  // A loop over the elements of data operands[0]: the first element below the lower bound,
  // above the upper bound, or NaN ends the function with status -3 and where = {variable,
  // element, 1 below / 2 above / 3 NaN}.
  void checkData(const Inst& i) {
    const Inst& data = at(i.operands[0]);
    bool isInt = data.type.elem == Elem::Int;
    llvm::Value* n = count(data.type);
    llvm::Value* base = isInt && data.type.rank == 0 ? nullptr : ptrOf(i.operands[0]);
    auto bound = [&](int which, llvm::Value* index) -> llvm::Value* {
      ValueId b = i.operands[static_cast<size_t>(which)];
      if (b == ir::kNone) return nullptr;
      if (isInt) return intOf(b);
      const Inst& bi = at(b);
      llvm::Value* stride = bi.type.rank == 0 ? i64(0) : i64(1);
      return load(b_.CreateGEP(b_.getDoubleTy(), ptrOf(b), b_.CreateMul(index, stride)));
    };
    llvm::BasicBlock* before = b_.GetInsertBlock();
    auto* loop = llvm::BasicBlock::Create(ctx_, "check", fn_);
    auto* body = llvm::BasicBlock::Create(ctx_, "check.body", fn_);
    auto* done = llvm::BasicBlock::Create(ctx_, "check.done", fn_);
    b_.CreateBr(loop);
    b_.SetInsertPoint(loop);
    llvm::PHINode* idx = b_.CreatePHI(b_.getInt64Ty(), 2);
    idx->addIncoming(i64(0), before);
    b_.CreateCondBr(b_.CreateICmpSLT(idx, n), body, done);
    b_.SetInsertPoint(body);
    llvm::Value* v = isInt ? (base ? b_.CreateLoad(b_.getInt64Ty(), b_.CreateGEP(b_.getInt64Ty(), base, idx))
                                   : intOf(i.operands[0]))
                           : load(b_.CreateGEP(b_.getDoubleTy(), base, idx));
    llvm::Value* kind = i64(0);
    if (!isInt) kind = b_.CreateSelect(b_.CreateFCmpUNO(v, v), i64(3), kind);
    if (llvm::Value* hi = bound(2, idx))
      kind = b_.CreateSelect(isInt ? b_.CreateICmpSGT(v, hi) : b_.CreateFCmpOGT(v, hi), i64(2), kind);
    if (llvm::Value* lo = bound(1, idx))
      kind = b_.CreateSelect(isInt ? b_.CreateICmpSLT(v, lo) : b_.CreateFCmpOLT(v, lo), i64(1), kind);
    auto* bad = llvm::BasicBlock::Create(ctx_, "check.bad", fn_);
    auto* next = llvm::BasicBlock::Create(ctx_, "check.next", fn_);
    b_.CreateCondBr(b_.CreateICmpNE(kind, i64(0)), bad, next);
    b_.SetInsertPoint(bad);
    failCheck(i64(i.imm), idx, kind,
              kind_ == Kind::Output ? PVI_STATUS_GENERATED_OUT_OF_BOUNDS : PVI_STATUS_DATA_OUT_OF_BOUNDS);
    b_.SetInsertPoint(next);
    idx->addIncoming(b_.CreateAdd(idx, i64(1)), next);
    b_.CreateBr(loop);
    b_.SetInsertPoint(done);
  }
  // Ends a data-check function: where = {w0, w1, w2}, the status, and return.
  // In an output function `where` is the output array, and {w0, w1, w2} are written as doubles.
  void failCheck(llvm::Value* w0, llvm::Value* w1, llvm::Value* w2, std::int64_t status) {
    llvm::Value* where = arg(5);
    const bool asDoubles = kind_ == Kind::Output;
    llvm::Type* elem = asDoubles ? b_.getDoubleTy() : b_.getInt64Ty();
    llvm::Value* ws[] = {w0, w1, w2};
    for (unsigned k = 0; k < 3; ++k) {
      llvm::Value* v = asDoubles ? b_.CreateSIToFP(ws[k], b_.getDoubleTy()) : ws[k];
      b_.CreateStore(v, b_.CreateConstGEP1_64(elem, where, k));
    }
    b_.CreateStore(i64(status), statusArg());
    b_.CreateRet(f64(asDoubles ? std::numeric_limits<double>::quiet_NaN() : 0.0));
  }

  // A random draw: the _rng kernel writes the result's buffer (an int scalar is then loaded from
  // it). Arguments outside the distribution's domain end the function with PVI_STATUS_RNG_DOMAIN
  // and out = {the call's index, the element}.
  void rng(size_t k, const Inst& i) {
    const stdlib::RngOp* op = stdlib::findRngOp(i.name);
    if (op == nullptr) throw std::logic_error("no rng op " + i.name);
    const auto& ops = i.operands;
    std::vector<llvm::Value*> args{arg(9)};
    if (op->conv == stdlib::RngConv::Vectorised) {
      args.push_back(count(i.type));
      for (size_t a = 0; a < ops.size(); ++a) {
        const bool isInt = a < op->intArgs.size() && op->intArgs[a];
        args.push_back(isInt ? intPointer(ops[a]) : ptrOf(ops[a]));
        args.push_back(stride(ops[a]));
      }
    } else {
      args.push_back(count(at(ops[0]).type));
      for (ValueId a : ops) args.push_back(ptrOf(a));
    }
    args.push_back(ptrs_[k]);
    llvm::Value* st = call(op->symbol, b_.getInt64Ty(), args);
    auto* bad = llvm::BasicBlock::Create(ctx_, "rng.bad", fn_);
    auto* ok = llvm::BasicBlock::Create(ctx_, "rng.ok", fn_);
    b_.CreateCondBr(b_.CreateICmpNE(st, i64(0)), bad, ok, llvm::MDBuilder(ctx_).createBranchWeights(1, 1000));
    b_.SetInsertPoint(bad);
    failCheck(i64(i.imm), b_.CreateSub(st, i64(1)), i64(0), PVI_STATUS_RNG_DOMAIN);
    b_.SetInsertPoint(ok);
    if (i.type.elem == Elem::Int && i.type.rank == 0) ints_[k] = b_.CreateLoad(b_.getInt64Ty(), ptrs_[k]);
  }
  // Two sizes that must be equal: when they differ, ends the function with status -5 and
  // where = {check index, first size, second size}.
  void checkSize(const Inst& i) {
    llvm::Value* a = intOf(i.operands[0]);
    llvm::Value* c = intOf(i.operands[1]);
    auto* bad = llvm::BasicBlock::Create(ctx_, "size.bad", fn_);
    auto* ok = llvm::BasicBlock::Create(ctx_, "size.ok", fn_);
    b_.CreateCondBr(b_.CreateICmpNE(a, c), bad, ok, llvm::MDBuilder(ctx_).createBranchWeights(1, 1000));
    b_.SetInsertPoint(bad);
    failCheck(i64(i.imm), a, c, PVI_STATUS_SIZE_MISMATCH);
    b_.SetInsertPoint(ok);
  }
  // target += v; a v that is not finite notes its statement's site (pvi_note_nonfinite), so that
  // the runtime can say which statement made the log density -inf or NaN.
  void addTarget(llvm::Value* v, std::int32_t site) {
    b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(b_.getDoubleTy(), target_), v), target_);
    if (site < 0) return;
    llvm::Value* magnitude = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
    llvm::Value* notFinite = b_.CreateFCmpUEQ(magnitude, llvm::ConstantFP::getInfinity(b_.getDoubleTy()));
    auto* note = llvm::BasicBlock::Create(ctx_, "nonfinite", fn_);
    auto* next = llvm::BasicBlock::Create(ctx_, "finite", fn_);
    b_.CreateCondBr(notFinite, note, next, llvm::MDBuilder(ctx_).createBranchWeights(1, 1000));
    b_.SetInsertPoint(note);
    call("pvi_note_nonfinite", b_.getVoidTy(), {i64(site)});
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
  }

  llvm::Value* call(const std::string& name, llvm::Type* ret, const std::vector<llvm::Value*>& args) {
    std::vector<llvm::Type*> types;
    for (llvm::Value* a : args) types.push_back(a->getType());
    llvm::FunctionCallee callee = m_.getOrInsertFunction(name, llvm::FunctionType::get(ret, types, false));
    return b_.CreateCall(callee, args);
  }

  // An int operand of a density: a pointer to int64 data, or a scalar stored in a stack slot.
  llvm::Value* intPointer(ValueId v) {
    const Inst& i = at(v);
    if (i.type.rank > 0) return ptrOf(v);
    llvm::IRBuilder<> entry(entry_, entry_->begin());
    llvm::Value* slot = entry.CreateAlloca(b_.getInt64Ty());
    b_.CreateStore(intOf(v), slot);
    return slot;
  }

  llvm::Value* stride(ValueId v) { return i64(at(v).type.rank == 0 ? 0 : 1); }

  // (n, value, [bound, stride]..., out): the arguments shared by transforms and their inverses.
  std::vector<llvm::Value*> transformArgs(const Inst& i, llvm::Value* out) {
    std::vector<llvm::Value*> args{count(i.type), ptrOf(i.operands[0])};
    for (size_t a = 1; a < i.operands.size(); ++a) {
      args.push_back(ptrOf(i.operands[a]));
      args.push_back(stride(i.operands[a]));
    }
    args.push_back(out);
    return args;
  }

  // A fused element-wise tree (compiler/fuse): one loop over its elements. Forward, out[j] is
  // the tree's value at j. Backward, the loop evaluates the tree again, sweeps it backwards from
  // g_out[j], and adds each leaf's part to its adjoint: element j for a container leaf, a sum for
  // a broadcast scalar (a reduction the vectoriser may reorder: `reassoc`).
  void fusedElementwise(size_t k, const Inst& i, bool backward, const Inst* bw) {
    const size_t leaves = i.operands.size();
    llvm::Value* n = count(i.type);
    std::vector<llvm::Value*> base(leaves, nullptr), scalar(leaves, nullptr), adjoint(leaves, nullptr);
    for (size_t a = 0; a < leaves; ++a) {
      if (at(i.operands[a]).type.rank == 0)
        scalar[a] = load(ptrOf(i.operands[a]));
      else
        base[a] = ptrOf(i.operands[a]);
      if (backward && bw->operands[2 + a] != ir::kNone) adjoint[a] = ptrOf(bw->operands[2 + a]);
    }
    llvm::Value* gOut = backward ? ptrOf(bw->operands[1]) : nullptr;
    llvm::Value* out = ptrs_[k];
    llvm::FastMathFlags reassoc;
    reassoc.setAllowReassoc();
    // Broadcast leaves' adjoints are summed in stack slots, which LLVM's SROA makes registers.
    std::vector<llvm::Value*> sums(leaves, nullptr);
    llvm::IRBuilder<> entry(entry_, entry_->begin());
    for (size_t a = 0; a < leaves; ++a)
      if (adjoint[a] != nullptr && scalar[a] != nullptr) {
        sums[a] = entry.CreateAlloca(b_.getDoubleTy());
        b_.CreateStore(f64(0.0), sums[a]);
      }
    forEach(n, [&](llvm::Value* j) {
      // The tree's nodes in postfix order: a leaf's index, or an operation on earlier nodes.
      struct Node {
        int leaf = -1;
        std::string op;
        int left = -1, right = -1;
        llvm::Value* value = nullptr;
      };
      std::vector<Node> nodes;
      std::vector<int> stack;
      for (const std::string& t : i.texts) {
        Node node;
        if (t == "+" || t == "-" || t == "*" || t == "/") {
          node.right = stack.back();
          stack.pop_back();
          node.left = stack.back();
          stack.pop_back();
          node.op = t;
          llvm::Value* x = nodes[static_cast<size_t>(node.left)].value;
          llvm::Value* y = nodes[static_cast<size_t>(node.right)].value;
          node.value = t == "+"   ? b_.CreateFAdd(x, y)
                       : t == "-" ? b_.CreateFSub(x, y)
                       : t == "*" ? b_.CreateFMul(x, y)
                                  : b_.CreateFDiv(x, y);
        } else if (t == "neg") {
          node.left = stack.back();
          stack.pop_back();
          node.op = t;
          node.value = b_.CreateFNeg(nodes[static_cast<size_t>(node.left)].value);
        } else {
          node.leaf = std::stoi(t);
          const size_t a = static_cast<size_t>(node.leaf);
          node.value = scalar[a] != nullptr ? scalar[a] : load(b_.CreateGEP(b_.getDoubleTy(), base[a], j));
        }
        stack.push_back(static_cast<int>(nodes.size()));
        nodes.push_back(node);
      }
      if (stack.size() != 1) throw std::logic_error("a malformed fused element-wise tree");
      if (!backward) {
        b_.CreateStore(nodes.back().value, b_.CreateGEP(b_.getDoubleTy(), out, j));
      } else {
        // The derivative rules of ew_add, ew_sub, ew_mul, ew_div and neg (stdlib/kernels/arith).
        std::vector<llvm::Value*> adj(nodes.size(), nullptr), part(leaves, nullptr);
        auto add = [&](int to, llvm::Value* v) {
          llvm::Value*& slot = adj[static_cast<size_t>(to)];
          slot = slot == nullptr ? v : b_.CreateFAdd(slot, v);
        };
        adj.back() = load(b_.CreateGEP(b_.getDoubleTy(), gOut, j));
        for (size_t m = nodes.size(); m-- > 0;) {
          const Node& node = nodes[m];
          llvm::Value* d = adj[m];
          if (d == nullptr) continue;
          if (node.leaf >= 0) {
            llvm::Value*& p = part[static_cast<size_t>(node.leaf)];
            p = p == nullptr ? d : b_.CreateFAdd(p, d);
            continue;
          }
          llvm::Value* y = node.right >= 0 ? nodes[static_cast<size_t>(node.right)].value : nullptr;
          if (node.op == "+") {
            add(node.left, d);
            add(node.right, d);
          } else if (node.op == "-") {
            add(node.left, d);
            add(node.right, b_.CreateFNeg(d));
          } else if (node.op == "*") {
            add(node.left, b_.CreateFMul(d, y));
            add(node.right, b_.CreateFMul(d, nodes[static_cast<size_t>(node.left)].value));
          } else if (node.op == "/") {
            add(node.left, b_.CreateFDiv(d, y));
            add(node.right, b_.CreateFDiv(b_.CreateFMul(b_.CreateFNeg(d), node.value), y));
          } else {  // neg
            add(node.left, b_.CreateFNeg(d));
          }
        }
        for (size_t a = 0; a < leaves; ++a) {
          if (adjoint[a] == nullptr) continue;
          llvm::Value* p = part[a] != nullptr ? part[a] : f64(0.0);
          if (scalar[a] != nullptr) {
            auto* sum = llvm::cast<llvm::Instruction>(b_.CreateFAdd(load(sums[a]), p));
            sum->setFastMathFlags(reassoc);
            b_.CreateStore(sum, sums[a]);
          } else {
            llvm::Value* at = b_.CreateGEP(b_.getDoubleTy(), adjoint[a], j);
            b_.CreateStore(b_.CreateFAdd(load(at), p), at);
          }
        }
      }
    });
    for (size_t a = 0; a < leaves; ++a)
      if (sums[a] != nullptr) b_.CreateStore(b_.CreateFAdd(load(adjoint[a]), load(sums[a])), adjoint[a]);
  }

  // Forward call of kernel instruction k, or (backward) its derivative rule.
  void kernel(size_t k, const Inst& i, bool backward, const Inst* bw = nullptr) {
    if (i.name == kFusedElementwise) return fusedElementwise(k, i, backward, bw);
    const stdlib::KernelOp* op = stdlib::findKernelOp(i.name);
    if (op == nullptr) throw std::logic_error("no kernel op " + i.name);
    llvm::Type* dbl = b_.getDoubleTy();
    llvm::Type* vd = b_.getVoidTy();
    const auto& ops = i.operands;
    llvm::Value* out = ptrs_[k];
    auto g = [&](size_t operand) { return ptrOf(bw->operands[2 + operand]); };  // operand adjoint
    auto gOut = [&]() { return ptrOf(bw->operands[1]); };
    switch (op->conv) {
      case CallConv::Density: {
        llvm::Value* n = i64(1);
        for (ValueId a : ops)
          if (at(a).type.rank > 0) {
            n = count(at(a).type);
            break;
          }
        std::vector<llvm::Value*> args{n};
        for (size_t a = 0; a < ops.size(); ++a) {
          bool isInt = a < op->intArgs.size() && op->intArgs[a];
          args.push_back(isInt ? intPointer(ops[a]) : ptrOf(ops[a]));
          args.push_back(stride(ops[a]));
        }
        if (!backward) {
          b_.CreateStore(call(op->value, dbl, args), out);
          return;
        }
        args.insert(args.begin(), bw->fused ? f64(1.0) : load(gOut()));
        for (size_t a = 0; a < ops.size(); ++a)
          if (!(a < op->intArgs.size() && op->intArgs[a])) args.push_back(g(a));
        llvm::Value* value = call(op->grad, dbl, args);
        if (bw->fused) addTarget(value, i.site);
        return;
      }
      case CallConv::Ode: {
        llvm::Function* system = m_.getFunction(odeSystemSymbol(i.imm));
        if (system == nullptr) throw std::logic_error("ODE system " + std::to_string(i.imm) + " was not emitted");
        auto n = [&](size_t a) { return count(at(ops[a]).type); };
        std::vector<llvm::Value*> args{system,         n(0),       ptrOf(ops[0]), load(ptrOf(ops[1])),
                                       n(2),           ptrOf(ops[2]), n(3),       ptrOf(ops[3]),
                                       n(4),           ptrOf(ops[4]), n(5),       intPointer(ops[5]),
                                       load(ptrOf(ops[6])), load(ptrOf(ops[7])), load(ptrOf(ops[8]))};
        // In a gradient function the forward solve integrates the sensitivities its derivative rule
        // needs (stdlib/kernels/ode/ode.h), so that the value is the solution the gradient belongs to.
        std::string symbol = backward ? op->grad : op->value;
        if (!backward && i.sensitivities != 0) {
          symbol = op->value + "_sens";
          args.push_back(i64(i.sensitivities & 1));
          args.push_back(i64((i.sensitivities >> 1) & 1));
        }
        if (!backward) {
          args.push_back(out);
        } else {
          args.push_back(out);
          args.push_back(gOut());
          args.push_back(g(0));
          args.push_back(g(3));
        }
        llvm::Value* st = call(symbol, b_.getInt64Ty(), args);
        // An index error in the system's function is reported at the solver's statement.
        llvm::Value* code = b_.CreateSelect(b_.CreateICmpEQ(st, i64(PVI_STATUS_INDEX_OUT_OF_RANGE)), indexStatus(i), st);
        failIf(b_.CreateICmpNE(st, i64(0)), code);
        return;
      }
      case CallConv::InverseTransform: {  // value only: unconstrain maps are not differentiated
        llvm::Value* st = call(op->value, b_.getInt64Ty(), transformArgs(i, out));
        failIf(b_.CreateICmpNE(st, i64(0)), i64(PVI_STATUS_VALUE_OUT_OF_BOUNDS));
        return;
      }
      case CallConv::MultiNormal: {
        // y and mu: a vector (rank 1, stride 0) or an array of n vectors (rank 2, stride k).
        const ir::VType& matrix = at(ops[2]).type;
        llvm::Value* k = intOf(matrix.dims[0]);
        llvm::Value* n = i64(1);
        std::vector<llvm::Value*> strides;
        for (size_t a = 0; a < 2; ++a) {
          const ir::VType& t = at(ops[a]).type;
          if (t.rank == 2) n = intOf(t.dims[1]);
          strides.push_back(t.rank == 2 ? k : i64(0));
        }
        std::vector<llvm::Value*> args{n, k, ptrOf(ops[0]), strides[0], ptrOf(ops[1]), strides[1], ptrOf(ops[2])};
        if (!backward) {
          b_.CreateStore(call(op->value, dbl, args), out);
          return;
        }
        args.insert(args.begin(), bw->fused ? f64(1.0) : load(gOut()));
        for (size_t a = 0; a < ops.size(); ++a) args.push_back(g(a));
        llvm::Value* value = call(op->grad, dbl, args);
        if (bw->fused) addTarget(value, i.site);
        return;
      }
      case CallConv::Categorical:
      case CallConv::Dirichlet: {
        std::vector<llvm::Value*> args;
        bool categorical = op->conv == CallConv::Categorical;
        llvm::Value* k = count(at(ops[categorical ? 1 : 0]).type);
        if (categorical) {
          args = {count(at(ops[0]).type), intPointer(ops[0]), stride(ops[0]), k, ptrOf(ops[1])};
        } else {
          args = {k};
          for (ValueId a : ops) args.push_back(ptrOf(a));
        }
        if (!backward) {
          b_.CreateStore(call(op->value, dbl, args), out);
          return;
        }
        args.insert(args.begin(), bw->fused ? f64(1.0) : load(gOut()));
        for (size_t a = categorical ? 1 : 0; a < ops.size(); ++a) args.push_back(g(a));
        llvm::Value* value = call(op->grad, dbl, args);
        if (bw->fused) addTarget(value, i.site);
        return;
      }
      case CallConv::Unary:
      case CallConv::Fill: {
        llvm::Value* n = count(i.type);
        if (!backward) call(op->value, vd, {n, ptrOf(ops[0]), out});
        else call(op->grad, vd, {n, ptrOf(ops[0]), out, gOut(), g(0)});
        return;
      }
      case CallConv::EwBinary: {
        llvm::Value* n = count(i.type);
        std::vector<llvm::Value*> args{n, ptrOf(ops[0]), stride(ops[0]), ptrOf(ops[1]), stride(ops[1]), out};
        if (!backward) {
          call(op->value, vd, args);
        } else {
          args.push_back(gOut());
          args.push_back(g(0));
          args.push_back(g(1));
          call(op->grad, vd, args);
        }
        return;
      }
      case CallConv::ScalarBinary:
      case CallConv::ScalarTernary: {
        std::vector<llvm::Value*> args;
        for (ValueId a : ops) args.push_back(load(ptrOf(a)));
        if (!backward) {
          b_.CreateStore(call(op->value, dbl, args), out);
          return;
        }
        args.push_back(load(out));
        args.push_back(load(gOut()));
        for (size_t a = 0; a < ops.size(); ++a) args.push_back(g(a));
        call(op->grad, vd, args);
        return;
      }
      case CallConv::Reduce: {
        llvm::Value* n = count(at(ops[0]).type);
        if (!backward) b_.CreateStore(call(op->value, dbl, {n, ptrOf(ops[0])}), out);
        else call(op->grad, vd, {n, ptrOf(ops[0]), load(out), load(gOut()), g(0)});
        return;
      }
      case CallConv::Dot: {
        llvm::Value* n = count(at(ops[0]).type);
        if (!backward) b_.CreateStore(call(op->value, dbl, {n, ptrOf(ops[0]), ptrOf(ops[1])}), out);
        else call(op->grad, vd, {n, ptrOf(ops[0]), ptrOf(ops[1]), load(gOut()), g(0), g(1)});
        return;
      }
      case CallConv::MatVec:
      case CallConv::VecMat: {  // the matrix is the first operand of matvec, the second of vecmat
        const ir::VType& a = at(ops[op->conv == CallConv::MatVec ? 0 : 1]).type;
        llvm::Value *r = intOf(a.dims[0]), *c = intOf(a.dims[1]);
        if (!backward) call(op->value, vd, {r, c, ptrOf(ops[0]), ptrOf(ops[1]), out});
        else call(op->grad, vd, {r, c, ptrOf(ops[0]), ptrOf(ops[1]), gOut(), g(0), g(1)});
        return;
      }
      case CallConv::MatMul: {
        const ir::VType& a = at(ops[0]).type;
        const ir::VType& bt = at(ops[1]).type;
        llvm::Value* r = intOf(a.dims[0]);
        llvm::Value* inner = a.rank == 2 ? intOf(a.dims[1]) : i64(1);
        llvm::Value* c = bt.rank == 2 ? intOf(bt.dims[1]) : intOf(bt.dims[0]);
        if (!backward) call(op->value, vd, {r, inner, c, ptrOf(ops[0]), ptrOf(ops[1]), out});
        else call(op->grad, vd, {r, inner, c, ptrOf(ops[0]), ptrOf(ops[1]), gOut(), g(0), g(1)});
        return;
      }
      case CallConv::Transpose: {
        const ir::VType& a = at(ops[0]).type;
        llvm::Value *r = intOf(a.dims[0]), *c = intOf(a.dims[1]);
        if (!backward) call(op->value, vd, {r, c, ptrOf(ops[0]), out});
        else call(op->grad, vd, {r, c, gOut(), g(0)});
        return;
      }
      case CallConv::Row: {
        const ir::VType& a = at(ops[0]).type;
        llvm::Value *r = intOf(a.dims[0]), *c = intOf(a.dims[1]), *row = intOf(ops[1]);
        llvm::Value* bad = b_.CreateOr(b_.CreateICmpSLT(row, i64(1)), b_.CreateICmpSGT(row, r));
        if (!backward) {
          failIf(bad, indexStatus(i));
          call(op->value, vd, {r, c, row, ptrOf(ops[0]), out});
        } else {
          call(op->grad, vd, {r, c, row, gOut(), g(0)});
        }
        return;
      }
      case CallConv::Subscript: {
        std::vector<llvm::Value*> args = subscriptArgs(at(ops[0]).type, ops, 1);
        if (!backward) {
          args.push_back(ptrOf(ops[0]));
          args.push_back(out);
          llvm::Value* st = call(op->value, b_.getInt64Ty(), args);
          failIf(b_.CreateICmpNE(st, i64(0)), indexStatus(i));
        } else {
          args.push_back(gOut());
          args.push_back(g(0));
          call(op->grad, vd, args);
        }
        return;
      }
      case CallConv::Gather: {
        llvm::Value* n = count(i.type);
        llvm::Value* idx = ptrOf(ops[1]);
        if (!backward) {
          llvm::Value* len = count(at(ops[0]).type);
          llvm::Value* st = call(op->value, b_.getInt64Ty(), {n, idx, len, ptrOf(ops[0]), out});
          failIf(b_.CreateICmpNE(st, i64(0)), indexStatus(i));
        } else {
          call(op->grad, vd, {n, idx, gOut(), g(0)});
        }
        return;
      }
      case CallConv::Transform: {
        std::vector<llvm::Value*> args = transformArgs(i, out);
        if (!backward) {
          llvm::Value* logJacobian = call(op->value, dbl, args);
          if (i.imm) addTarget(logJacobian, i.site);
          return;
        }
        args.push_back(gOut());
        args.push_back(f64(i.imm ? 1.0 : 0.0));
        args.push_back(g(0));
        for (size_t a = 1; a < ops.size(); ++a) args.push_back(g(a));
        call(op->grad, vd, args);
        return;
      }
    }
  }

  llvm::Module& m_;
  const ir::Function& f_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  llvm::Function* fn_ = nullptr;
  bool hasBackward_ = false;  // a gradient function

  llvm::BasicBlock* entry_ = nullptr;
  llvm::Value* target_ = nullptr;
  std::vector<llvm::Value*> ints_;
  std::vector<bool> done_;  // int instructions (and index checks) already emitted
  std::vector<int> depth_;
  std::vector<Loop> loops_;
  std::vector<Branch> branches_;
  std::vector<llvm::Value*> ptrs_;
  std::vector<llvm::Value*> offsets_;
};

}  // namespace

std::string odeSystemSymbol(int64_t k) { return "pvi_ode_system_" + std::to_string(k); }

void emitFunction(llvm::Module& module, const ir::Function& f, const std::string& symbol) {
  Emitter(module, f).emit(symbol);
}

void emitDimsFunction(llvm::Module& module, const ir::Function& f, const std::string& symbol) {
  Emitter(module, f).emitDims(symbol);
}

void emitOutputFunction(llvm::Module& module, const ir::Function& f, const std::string& symbol,
                        const std::string& sizeSymbol) {
  Emitter(module, f).emitOutput(symbol, false);
  if (!sizeSymbol.empty()) Emitter(module, f).emitDims(sizeSymbol);
}

void emitGenerateFunction(llvm::Module& module, const ir::Function& f, const std::string& symbol,
                          const std::string& sizeSymbol) {
  Emitter(module, f).emitOutput(symbol, true);
  if (!sizeSymbol.empty()) Emitter(module, f).emitDims(sizeSymbol);
}

void emitDataCheckFunctions(llvm::Module& module, const ir::Function& f, ir::Source source,
                            const std::string& checkSymbol, const std::string& countsSymbol) {
  Emitter(module, f).emitCheck(checkSymbol);
  Emitter(module, f).emitCounts(countsSymbol, source);
}

}  // namespace pvi

#pragma once
// The factor IR: typed SSA over int scalars and real tensors (scalars, vectors, matrices).
//
// Every instruction defines at most one value, named by its index in Function::insts. Int
// scalars are plain values (sizes, indices, counts). Real values are tensors held in buffers:
// a view into the inputs (z, w, theta, data) or a workspace buffer; their dims are int values.
// Whole-vector operations are single instructions (a matrix-vector product, a vectorised
// density), so the gradient of `y ~ bernoulli_logit(X * w)` costs a few passes over X.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace pvi::ir {

using ValueId = int;
inline constexpr ValueId kNone = -1;

enum class Elem { Int, Real };

// rank 0: scalar; rank 1: vector or row_vector (length dims[0]); rank 2: matrix (dims[0] rows,
// dims[1] columns, column-major). Arrays add their dimensions after the element's, innermost
// first, so that an array is stored row-major over its indices with each element contiguous:
// array[K] vector[D] is {D, K}, array[N, M] real is {M, N}, array[N] matrix[R, C] is {R, C, N}.
// dims[0] varies fastest. Dims are ValueIds of int scalars; entries past `rank` are unused.
// A buffer whose dims[d] changes inside a loop (a slice from 1 to the loop variable) is sized
// once, before the function runs, by cap[d]: an upper bound of dims[d] computed from the data
// (kNone: dims[d] is itself computed before the function runs). Its elements are stored by
// dims, so only the first of its cap elements are used.
inline constexpr int kMaxRank = 4;
struct VType {
  Elem elem = Elem::Real;
  int rank = 0;
  ValueId dims[kMaxRank] = {kNone, kNone, kNone, kNone};
  ValueId cap[kMaxRank] = {kNone, kNone, kNone, kNone};
};

enum class Source { Shared, Partition };      // which data a Data instruction reads
// Which unconstrained parameter vector a Param reads, or which gradient output it views.
enum class Input { Z, W, Theta, GradZ, GradW, GradTheta, Out };

enum class Op {
  ConstInt,    // imm
  ConstReal,   // fimm
  Data,        // data variable `index` of `source`: int scalar value, or a view of its array
  Param,       // view of `input` at offset operands[0], with the result's dims
  IntArith,    // int scalar `name` (+ - * / % min max) of operands
  IntExtreme,  // int scalar: the smallest (imm = 0) or largest (imm = 1) element of int data
               // operands[0], 0 when it has none; bounds sizes and slots that change in loops
  Compare,     // int scalar: `name` (< <= > >= == != && ||) of scalar operands (int or real)
  ToReal,      // real scalar from an int scalar, or real array from an int array (same dims)
  ToInt,       // int scalar from a real scalar holding an integer (the sum of an int array)
  Kernel,      // stdlib op `name` (see stdlib/Ops.hpp) of operands; real tensor result
  Element,     // view of element operands[1] (1-based) of operands[0] along its last (slowest)
               // dimension: the column of a matrix, the element of an array
  Reshape,     // view of operands[0]'s buffer with the result's type (to_vector of a matrix)
  Rng,         // generate functions only: a draw of the _rng function `name` (stdlib/Ops.hpp
               // RngOp) with arguments operands; a real or int tensor, or an int scalar value;
               // imm = the call's index in LoweredModel::rngCalls
  AddTarget,   // target += operands[0] (a real scalar)
  Output,      // output functions: copies operands[0] to the output array at offset operands[1]
  // Structured control flow; the instructions between a begin and its end form the body.
  LoopBegin,       // int loop variable from operands[0] to operands[1]; imm = 1 runs it backwards;
                   // imm = 2: a while loop (left by its LoopExitUnless, never reversed)
  LoopEnd,         // operands[0]: its LoopBegin
  LoopExitUnless,  // leaves the innermost loop when int operands[0] is 0
  IfBegin,         // runs the then-branch when int operands[0] != 0
  Else,            // operands[0]: its IfBegin
  IfEnd,           // operands[0]: its IfBegin
  // Variables assigned after their declaration, inside loops and branches (or element by
  // element): a mutable buffer, written by Store and read by Load. Everything else is SSA.
  Var,        // a buffer of the result's type, initialised from operands[0] (kNone: NaN, or 0
              // for ints)
  Store,      // copies operands[1] into operands[0], a Var or a view of one; with more
              // operands, into the part of operands[0] they select (as kernel `subscript`)
  Load,       // a copy of operands[0] (a Var or a view of one) taken now. Inside loops of a
              // factor function operands[1] is the slot (0-based int) and operands[2] the
              // number of slots: each execution keeps its copy, so that the gradient's replay
              // of a loop body reads the value of that iteration. imm = 1 (gradient replay
              // only): no copy, view the slot.
  CheckData,  // data validation: the elements of data operands[0] must lie within
              // [operands[1], operands[2]] (kNone: no bound) and reals must not be NaN;
              // imm = the variable's index in its block. In generate functions: the same
              // check of a generated quantity, imm = its index among the function's outputs
  CheckSize,  // data validation: int scalars operands[0] and operands[1] must be equal;
              // imm = the index of the size check (DataSchema::sizeChecks)
  Print,      // Stan's `name` (print, reject or fatal_error): writes texts[k] where operands[k] is
              // kNone, else the value operands[k], as one line to stderr; reject and fatal_error
              // then end the function (PVI_STATUS_REJECT / PVI_STATUS_FATAL_ERROR)
  // Gradient functions only (made by compiler/ad):
  Zero,      // a zeroed buffer of the result's type: the adjoint of a computed value
  Backward,  // the derivative rule of instruction operands[0]: operands[1] is its adjoint,
             // operands[2...] the adjoints of its operands (kNone where not needed)
};

struct Inst {
  Op op;
  VType type;                     // of the result (Int rank 0 for int values)
  std::vector<ValueId> operands;
  std::string name;               // Kernel: stdlib op; IntArith / Compare: operator
  int64_t imm = 0;                // ConstInt; Data: variable index
  double fimm = 0.0;              // ConstReal
  Source source = Source::Shared; // Data
  Input input = Input::Z;         // Param
  std::string comment;            // source text or variable name, for dumps
  std::vector<std::string> texts; // Print: the strings among its arguments
  // The statement it was lowered from (an index into LoweredModel::statements; -1 for none),
  // which a failing index check names (PVI_STATUS_INDEX_OUT_OF_RANGE_AT).
  int32_t site = -1;
  // Gradient functions: a density whose only use is `target +=` has adjoint 1, so its forward
  // call and its `target +=` are dropped and its Backward adds the value to target instead.
  bool fused = false;
  // Gradient functions: an ODE solve (stdlib CallConv::Ode) whose y0 (bit 0) or theta (bit 1)
  // depends on parameters; its forward call then integrates those sensitivities.
  int sensitivities = 0;
};

// An instruction with the given op, type and operands (everything else default).
inline Inst makeInst(Op op, VType type, std::vector<ValueId> operands = {}) {
  Inst i;
  i.op = op;
  i.type = type;
  i.operands = std::move(operands);
  return i;
}

// One factor: log p of its statements, as a function of z, w, theta and the data.
struct Function {
  std::string name;               // "prior" or "partition"
  std::vector<Inst> insts;
  // Int values holding the lengths of z, w and theta (kNone: the function has no such input).
  ValueId dimZ = kNone, dimW = kNone, dimTheta = kNone;
  // Output functions: the length of what they write.
  ValueId dimOut = kNone;

  ValueId add(Inst inst) {
    insts.push_back(std::move(inst));
    return static_cast<ValueId>(insts.size() - 1);
  }
  const Inst& at(ValueId v) const { return insts[static_cast<size_t>(v)]; }
};

// The layout of one unconstrained vector (z, w or theta): variable slices in order.
struct Slice {
  std::string name;
  ValueId offset;   // int value in the function that defines the layout
  VType type;
};

void print(std::ostream& out, const Function& f);

}  // namespace pvi::ir

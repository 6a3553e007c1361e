// The generated functions have exactly the types of the factor ABI (runtime/abi/factor_abi.h):
// for every entry of its list, the LLVM type of the generated function is the one the C
// function pointer type implies, and the function exists exactly when the model needs it.
// The expected types are spelled out here from the C types, independently of codegen.
#include <gtest/gtest.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

// The LLVM spelling of a C type of the ABI (opaque pointers).
template <class T>
std::string llvmName() {
  if constexpr (std::is_void_v<T>) return "void";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, int64_t>) return "i64";
  else if constexpr (std::is_pointer_v<T>) return "ptr";
  else static_assert(!sizeof(T), "unexpected type in the ABI");
}

template <class Fn>
struct Expected;
template <class R, class... Args>
struct Expected<R (*)(Args...)> {
  static constexpr size_t arity = sizeof...(Args);
  static std::string text() {
    std::vector<std::string> args{llvmName<Args>()...};
    std::string s = llvmName<R>() + " (";
    for (size_t k = 0; k < args.size(); ++k) s += (k ? ", " : "") + args[k];
    return s + ")";
  }
};

std::string typeText(llvm::Type* t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t->print(os);
  return s;
}

struct Entry {
  const char* symbol;
  std::string type;
  bool partitionOnly;
};

std::vector<Entry> abiEntries() {
  std::vector<Entry> out;
#define PVI_ENTRY(member, type, partition) out.push_back({PVI_ABI_SYMBOL(member), Expected<type>::text(), (partition) != 0});
  PVI_MODEL_CODE_FUNCTIONS(PVI_ENTRY)
#undef PVI_ENTRY
  return out;
}

void expectAbiTypes(const std::string& source, bool partitioned) {
  Compiled c = compileModel(source);
  ASSERT_TRUE(c.jit) << c.errors;
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = generatedModule(ctx, *c.lowered);
  size_t defined = 0;
  for (const Entry& e : abiEntries()) {
    SCOPED_TRACE(e.symbol);
    llvm::Function* f = m->getFunction(e.symbol);
    if (e.partitionOnly && !partitioned) {
      EXPECT_EQ(f, nullptr);
      continue;
    }
    ASSERT_NE(f, nullptr);
    EXPECT_FALSE(f->isDeclaration());
    EXPECT_EQ(typeText(f->getFunctionType()), e.type);
    ++defined;
  }
  // ... and nothing else is defined.
  size_t all = 0;
  for (const llvm::Function& f : *m) all += f.isDeclaration() ? 0 : 1;
  EXPECT_EQ(all, defined);
}

TEST(FactorAbi, DimsFunctionsHaveTheAbiType) {
  // pvi_dims_fn: void (const void* const* shared, const void* const* partition, int64_t* out).
  static_assert(Expected<pvi_dims_fn>::arity == 3);
  EXPECT_EQ(Expected<pvi_dims_fn>::text(), "void (ptr, ptr, ptr)");
  Compiled c = compileModel(R"(
@partition(site)
data per site { int N; vector[N] y; }
global { real mu; }
local per site { real b; }
model { mu ~ normal(0, 1); b ~ normal(0, 1); y ~ normal(mu + b, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = generatedModule(ctx, *c.lowered);
  for (const char* symbol : {PVI_ABI_SYMBOL(prior_dims), PVI_ABI_SYMBOL(partition_dims),
                             PVI_ABI_SYMBOL(constrain_globals_size), PVI_ABI_SYMBOL(shapes_partition_size)}) {
    SCOPED_TRACE(symbol);
    llvm::Function* f = m->getFunction(symbol);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->arg_size(), 3u);
    EXPECT_EQ(typeText(f->getFunctionType()), "void (ptr, ptr, ptr)");
  }
}

TEST(FactorAbi, EveryGeneratedFunctionHasItsAbiTypeWithPartition) {
  expectAbiTypes(readExample("hierarchical_logistic"), true);
}

const char* const kUnpartitioned = R"(
data { int N; vector[N] y; }
global { real mu; real<lower=0> sigma; }
model { mu ~ normal(0, 1); sigma ~ exponential(1); y ~ normal(mu, sigma); }
generated { real m2 = mu * 2; }
)";

TEST(FactorAbi, EveryGeneratedFunctionHasItsAbiTypeWithoutPartition) { expectAbiTypes(kUnpartitioned, false); }

// The JIT resolves the same list: every function of a partitioned model, and no partition
// function without a partition.
TEST(FactorAbi, JitFillsEveryMemberOfTheList) {
  for (bool partitioned : {true, false}) {
    SCOPED_TRACE(partitioned);
    Compiled c = compileModel(partitioned ? readExample("hierarchical_logistic") : std::string(kUnpartitioned));
    ASSERT_TRUE(c.jit) << c.errors;
    ASSERT_EQ(c.lowered->partitionName.empty(), !partitioned);
    const pvi_model_code& code = c.jit->code();
#define PVI_EXPECT_MEMBER(member, type, partition) \
  EXPECT_EQ(code.member != nullptr, !(partition) || partitioned) << PVI_ABI_SYMBOL(member);
    PVI_MODEL_CODE_FUNCTIONS(PVI_EXPECT_MEMBER)
#undef PVI_EXPECT_MEMBER
  }
}

}  // namespace
}  // namespace pvi::test

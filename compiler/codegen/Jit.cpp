#include "compiler/codegen/Jit.hpp"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>
#include <set>
#include <stdexcept>

#include "compiler/ad/Reverse.hpp"
#include "compiler/codegen/AbiTypes.hpp"
#include "compiler/codegen/Codegen.hpp"
#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/kernel_table.h"
#include "stdlib/kernels/rng/rng.h"

namespace pvi {

namespace {

void initialiseLlvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

template <class T>
T unwrap(llvm::Expected<T> v, const char* what) {
  if (!v) throw std::runtime_error(std::string(what) + ": " + llvm::toString(v.takeError()));
  return std::move(*v);
}

// The module defines the functions of the factor ABI's list (PVI_MODEL_CODE_FUNCTIONS), the
// partition ones when the model has a partition, each with its ABI type, and no others;
// anything else is a code generator bug.
void checkAbiFunctions(const llvm::Module& module, bool partitioned) {
  llvm::LLVMContext& ctx = module.getContext();
  std::set<std::string> members;
  auto check = [&](const char* symbol, llvm::FunctionType* type, bool needed) {
    members.insert(symbol);
    const llvm::Function* f = module.getFunction(symbol);
    if (f == nullptr) {
      if (needed) throw std::logic_error(std::string("generated code lacks the ABI function ") + symbol);
      return;
    }
    if (f->getFunctionType() != type)
      throw std::logic_error(std::string("the generated ") + symbol + " does not have its ABI type");
  };
#define PVI_CHECK_FUNCTION(member, type, partition) \
  check(PVI_ABI_SYMBOL(member), abi::functionType<type>(ctx), !(partition) || partitioned);
  PVI_MODEL_CODE_FUNCTIONS(PVI_CHECK_FUNCTION)
#undef PVI_CHECK_FUNCTION
  for (const llvm::Function& f : module)
    if (!f.isDeclaration() && !f.hasLocalLinkage() && !members.count(f.getName().str()))
      throw std::logic_error("generated code defines " + f.getName().str() + ", which is not an ABI function");
}

}  // namespace

std::unique_ptr<llvm::Module> generatedModule(llvm::LLVMContext& ctx, const LoweredModel& model) {
  auto module = std::make_unique<llvm::Module>("pvi_model", ctx);
  // The ODE systems first: the solver calls in the functions below take their addresses.
  for (size_t k = 0; k < model.odeSystems.size(); ++k) {
    const OdeSystem& system = model.odeSystems[k];
    if (system.rhs.insts.empty()) throw std::logic_error("the ODE system '" + system.function + "' was not compiled");
    const std::string symbol = odeSystemSymbol(static_cast<int64_t>(k));
    emitFunction(*module, differentiate(system.rhs), symbol);
    module->getFunction(symbol)->setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  emitFunction(*module, model.prior, PVI_ABI_SYMBOL(prior_value));
  emitFunction(*module, differentiate(model.prior), PVI_ABI_SYMBOL(prior_grad));
  emitDimsFunction(*module, model.prior, PVI_ABI_SYMBOL(prior_dims));
  emitDataCheckFunctions(*module, model.sharedCheck, ir::Source::Shared, PVI_ABI_SYMBOL(shared_check),
                         PVI_ABI_SYMBOL(shared_counts));
  emitDataCheckFunctions(*module, model.sharedCheckTransformed, ir::Source::Shared,
                         PVI_ABI_SYMBOL(shared_check_transformed), PVI_ABI_SYMBOL(shared_counts_transformed));
  emitOutputFunction(*module, model.constrainGlobals, PVI_ABI_SYMBOL(constrain_globals),
                     PVI_ABI_SYMBOL(constrain_globals_size));
  emitOutputFunction(*module, model.unconstrainGlobals, PVI_ABI_SYMBOL(unconstrain_globals), "");
  emitGenerateFunction(*module, model.generateShared, PVI_ABI_SYMBOL(generate_shared),
                       PVI_ABI_SYMBOL(generate_shared_size));
  emitOutputFunction(*module, model.shapesGlobals, PVI_ABI_SYMBOL(shapes_globals),
                     PVI_ABI_SYMBOL(shapes_globals_size));
  emitGenerateFunction(*module, model.transformSharedCounts, PVI_ABI_SYMBOL(transform_shared_counts), "");
  emitGenerateFunction(*module, model.transformShared, PVI_ABI_SYMBOL(transform_shared), "");
  const bool partitioned = !model.partitionName.empty();
  if (partitioned) {
    emitFunction(*module, model.partition, PVI_ABI_SYMBOL(partition_value));
    emitFunction(*module, differentiate(model.partition), PVI_ABI_SYMBOL(partition_grad));
    emitDimsFunction(*module, model.partition, PVI_ABI_SYMBOL(partition_dims));
    emitDataCheckFunctions(*module, model.partitionCheck, ir::Source::Partition, PVI_ABI_SYMBOL(partition_check),
                           PVI_ABI_SYMBOL(partition_counts));
    emitDataCheckFunctions(*module, model.partitionCheckTransformed, ir::Source::Partition,
                           PVI_ABI_SYMBOL(partition_check_transformed), PVI_ABI_SYMBOL(partition_counts_transformed));
    emitOutputFunction(*module, model.constrainLocals, PVI_ABI_SYMBOL(constrain_locals),
                       PVI_ABI_SYMBOL(constrain_locals_size));
    emitOutputFunction(*module, model.unconstrainLocals, PVI_ABI_SYMBOL(unconstrain_locals), "");
    emitGenerateFunction(*module, model.generatePartition, PVI_ABI_SYMBOL(generate_partition),
                         PVI_ABI_SYMBOL(generate_partition_size));
    emitOutputFunction(*module, model.shapesPartition, PVI_ABI_SYMBOL(shapes_partition),
                       PVI_ABI_SYMBOL(shapes_partition_size));
    emitGenerateFunction(*module, model.transformPartitionCounts, PVI_ABI_SYMBOL(transform_partition_counts), "");
    emitGenerateFunction(*module, model.transformPartition, PVI_ABI_SYMBOL(transform_partition), "");
  }
  checkAbiFunctions(*module, partitioned);
  std::string err;
  llvm::raw_string_ostream es(err);
  if (llvm::verifyModule(*module, &es)) throw std::runtime_error("generated LLVM IR is invalid: " + err);
  return module;
}

namespace {

void optimise(llvm::Module& module, llvm::TargetMachine& tm) {
  module.setDataLayout(tm.createDataLayout());
  module.setTargetTriple(tm.getTargetTriple().str());
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(module, mam);
}

std::string text(const llvm::Module& m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  m.print(os, nullptr);
  return s;
}

}  // namespace

struct JitModel::State {
  std::unique_ptr<llvm::orc::LLJIT> jit;
};

JitModel::~JitModel() = default;

std::unique_ptr<JitModel> JitModel::compile(const LoweredModel& model) {
  initialiseLlvm();
  auto ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module = generatedModule(*ctx, model);

  auto jtmb = unwrap(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  auto tm = unwrap(jtmb.createTargetMachine(), "creating the target machine");
  optimise(*module, *tm);

  std::unique_ptr<JitModel> out(new JitModel());
  out->llvmText_ = text(*module);
  out->state_ = std::make_unique<State>();
  out->state_->jit = unwrap(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(jtmb)).create(),
                            "creating the JIT");
  llvm::orc::LLJIT& jit = *out->state_->jit;

  // The kernels are resolved from the tables linked into this process, not by dlsym.
  llvm::orc::SymbolMap kernels;
  auto addTable = [&](const auto* table) {
    for (; table->name != nullptr; ++table)
      kernels[jit.mangleAndIntern(table->name)] = llvm::orc::ExecutorSymbolDef(
          llvm::orc::ExecutorAddr::fromPtr(table->address), llvm::JITSymbolFlags::Exported);
  };
  addTable(pvi_kernel_table);
  addTable(pvi_arith_kernel_table);
  addTable(pvi_rng_kernel_table);
  if (auto err = jit.getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(kernels))))
    throw std::runtime_error("registering kernels: " + llvm::toString(std::move(err)));
  // libm (exp, log, ...) may be called directly by optimised code.
  jit.getMainJITDylib().addGenerator(unwrap(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                                                jit.getDataLayout().getGlobalPrefix()),
                                            "searching the process"));
  if (auto err = jit.addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(ctx))))
    throw std::runtime_error("adding the module: " + llvm::toString(std::move(err)));

  auto lookup = [&](const char* name) { return unwrap(jit.lookup(name), name).toPtr<void*>(); };
  pvi_model_code& c = out->code_;
  const bool partitioned = !model.partitionName.empty();
#define PVI_LOOKUP_FUNCTION(member, type, partition) \
  if (!(partition) || partitioned) c.member = reinterpret_cast<type>(lookup(PVI_ABI_SYMBOL(member)));
  PVI_MODEL_CODE_FUNCTIONS(PVI_LOOKUP_FUNCTION)
#undef PVI_LOOKUP_FUNCTION
  return out;
}

void emitObjectFile(const LoweredModel& model, const std::string& path, const std::string& cpu) {
  initialiseLlvm();
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> module = generatedModule(ctx, model);
  // The model's description, so an executable built from this object needs no compiler.
  llvm::Constant* info = llvm::ConstantDataArray::getString(ctx, toJson(model.info), /*AddNull=*/true);
  new llvm::GlobalVariable(*module, info->getType(), /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage, info,
                           PVI_MODEL_INFO_SYMBOL);
  // The same target machine as the JIT's, so both run the same optimised code.
  auto jtmb = unwrap(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  jtmb.setRelocationModel(llvm::Reloc::PIC_);
  if (cpu != "host") {
    std::string error;
    const std::string triple = jtmb.getTargetTriple().str();
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
    std::unique_ptr<const llvm::MCSubtargetInfo> subtarget(target ? target->createMCSubtargetInfo(triple, "", "")
                                                                  : nullptr);
    if (subtarget == nullptr || !subtarget->isCPUStringValid(cpu)) {
      const bool x86 = jtmb.getTargetTriple().isX86();
      throw UnknownCpu("unknown CPU '" + cpu + "' for " + triple + " (use host, or a CPU name LLVM knows" +
                       (x86 ? std::string(", such as x86-64, x86-64-v2, x86-64-v3, x86-64-v4)") : std::string(")")));
    }
    jtmb.setCPU(cpu);
    jtmb.getFeatures() = llvm::SubtargetFeatures();  // the CPU's own features, not the host's
  }
  auto tm = unwrap(jtmb.createTargetMachine(), "creating the target machine");
  optimise(*module, *tm);
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec) throw std::runtime_error("cannot write '" + path + "': " + ec.message());
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, out, nullptr, llvm::CodeGenFileType::ObjectFile))
    throw std::runtime_error("the target cannot emit object files");
  pm.run(*module);
  out.flush();
  if (out.has_error()) throw std::runtime_error("error writing '" + path + "'");
}

std::string generatedLlvm(const LoweredModel& model, bool optimiseIt) {
  initialiseLlvm();
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> module = generatedModule(ctx, model);
  if (optimiseIt) {
    auto jtmb = unwrap(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
    auto tm = unwrap(jtmb.createTargetMachine(), "creating the target machine");
    optimise(*module, *tm);
  }
  return text(*module);
}

}  // namespace pvi

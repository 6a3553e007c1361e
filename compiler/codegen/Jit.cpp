#include "compiler/codegen/Jit.hpp"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>
#include <stdexcept>

#include "compiler/ad/Reverse.hpp"
#include "compiler/codegen/Codegen.hpp"
#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/kernel_table.h"

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

std::unique_ptr<llvm::Module> buildModule(llvm::LLVMContext& ctx, const LoweredModel& model) {
  auto module = std::make_unique<llvm::Module>("pvi_model", ctx);
  emitFunction(*module, model.prior, "pvi_prior_value");
  emitFunction(*module, differentiate(model.prior), "pvi_prior_grad");
  emitDimsFunction(*module, model.prior, "pvi_prior_dims");
  emitDataCheckFunctions(*module, model.sharedCheck, ir::Source::Shared, "pvi_shared_check", "pvi_shared_counts");
  emitOutputFunction(*module, model.constrainGlobals, "pvi_constrain_globals");
  emitOutputFunction(*module, model.unconstrainGlobals, "pvi_unconstrain_globals");
  emitOutputFunction(*module, model.generateShared, "pvi_generate_shared");
  emitOutputFunction(*module, model.shapesGlobals, "pvi_shapes_globals");
  if (!model.partitionName.empty()) {
    emitFunction(*module, model.partition, "pvi_partition_value");
    emitFunction(*module, differentiate(model.partition), "pvi_partition_grad");
    emitDimsFunction(*module, model.partition, "pvi_partition_dims");
    emitDataCheckFunctions(*module, model.partitionCheck, ir::Source::Partition, "pvi_partition_check",
                           "pvi_partition_counts");
    emitOutputFunction(*module, model.constrainLocals, "pvi_constrain_locals");
    emitOutputFunction(*module, model.unconstrainLocals, "pvi_unconstrain_locals");
    emitOutputFunction(*module, model.generatePartition, "pvi_generate_partition");
    emitOutputFunction(*module, model.shapesPartition, "pvi_shapes_partition");
  }
  std::string err;
  llvm::raw_string_ostream es(err);
  if (llvm::verifyModule(*module, &es)) throw std::runtime_error("generated LLVM IR is invalid: " + err);
  return module;
}

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
  std::unique_ptr<llvm::Module> module = buildModule(*ctx, model);

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
  c.prior_value = reinterpret_cast<pvi_factor_fn>(lookup("pvi_prior_value"));
  c.prior_grad = reinterpret_cast<pvi_factor_fn>(lookup("pvi_prior_grad"));
  c.prior_dims = reinterpret_cast<pvi_dims_fn>(lookup("pvi_prior_dims"));
  c.shared_counts = reinterpret_cast<pvi_counts_fn>(lookup("pvi_shared_counts"));
  c.shared_check = reinterpret_cast<pvi_check_fn>(lookup("pvi_shared_check"));
  c.constrain_globals = reinterpret_cast<pvi_output_fn>(lookup("pvi_constrain_globals"));
  c.constrain_globals_size = reinterpret_cast<pvi_dims_fn>(lookup("pvi_constrain_globals_size"));
  c.unconstrain_globals = reinterpret_cast<pvi_output_fn>(lookup("pvi_unconstrain_globals"));
  c.generate_shared = reinterpret_cast<pvi_output_fn>(lookup("pvi_generate_shared"));
  c.generate_shared_size = reinterpret_cast<pvi_dims_fn>(lookup("pvi_generate_shared_size"));
  c.shapes_globals = reinterpret_cast<pvi_output_fn>(lookup("pvi_shapes_globals"));
  c.shapes_globals_size = reinterpret_cast<pvi_dims_fn>(lookup("pvi_shapes_globals_size"));
  if (!model.partitionName.empty()) {
    c.partition_value = reinterpret_cast<pvi_factor_fn>(lookup("pvi_partition_value"));
    c.partition_grad = reinterpret_cast<pvi_factor_fn>(lookup("pvi_partition_grad"));
    c.partition_dims = reinterpret_cast<pvi_dims_fn>(lookup("pvi_partition_dims"));
    c.partition_counts = reinterpret_cast<pvi_counts_fn>(lookup("pvi_partition_counts"));
    c.partition_check = reinterpret_cast<pvi_check_fn>(lookup("pvi_partition_check"));
    c.constrain_locals = reinterpret_cast<pvi_output_fn>(lookup("pvi_constrain_locals"));
    c.constrain_locals_size = reinterpret_cast<pvi_dims_fn>(lookup("pvi_constrain_locals_size"));
    c.unconstrain_locals = reinterpret_cast<pvi_output_fn>(lookup("pvi_unconstrain_locals"));
    c.generate_partition = reinterpret_cast<pvi_output_fn>(lookup("pvi_generate_partition"));
    c.generate_partition_size = reinterpret_cast<pvi_dims_fn>(lookup("pvi_generate_partition_size"));
    c.shapes_partition = reinterpret_cast<pvi_output_fn>(lookup("pvi_shapes_partition"));
    c.shapes_partition_size = reinterpret_cast<pvi_dims_fn>(lookup("pvi_shapes_partition_size"));
  }
  return out;
}

void emitObjectFile(const LoweredModel& model, const std::string& path) {
  initialiseLlvm();
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> module = buildModule(ctx, model);
  // The model's description, so an executable built from this object needs no compiler.
  llvm::Constant* info = llvm::ConstantDataArray::getString(ctx, toJson(model.info), /*AddNull=*/true);
  new llvm::GlobalVariable(*module, info->getType(), /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage, info,
                           "pvi_model_info");
  // The same target machine as the JIT's, so both run the same optimised code.
  auto jtmb = unwrap(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  jtmb.setRelocationModel(llvm::Reloc::PIC_);
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
  std::unique_ptr<llvm::Module> module = buildModule(ctx, model);
  if (optimiseIt) {
    auto jtmb = unwrap(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
    auto tm = unwrap(jtmb.createTargetMachine(), "creating the target machine");
    optimise(*module, *tm);
  }
  return text(*module);
}

}  // namespace pvi

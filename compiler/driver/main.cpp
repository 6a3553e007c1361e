// pvic: the .pvi compiler driver.
//
// Exit codes: 0 success (a valid model; warnings allowed), 1 an invalid model, data or options,
// 2 bad usage or an unreadable input, 3 the fit failed, 4 an output could not be written.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "compiler/ad/Reverse.hpp"
#include "compiler/ast/AstPrint.hpp"
#include "compiler/codegen/Jit.hpp"
#include "compiler/ir/Ir.hpp"
#include "compiler/lower/Lower.hpp"
#include "compiler/driver/Frontend.hpp"
#include "compiler/driver/ModelFile.hpp"
#include "compiler/driver/RunCommands.hpp"
#include "compiler/sema/FactorDump.hpp"

namespace {

constexpr int kValid = 0;
constexpr int kInvalid = 1;
constexpr int kUsage = 2;
struct CheckOptions {
  std::vector<std::string> files;
  bool factors = false;
  bool dumpAst = false;
  bool dumpIr = false;
  bool dumpLlvm = false;
  size_t maxErrors = 100;
  std::string color = "auto";
};

int checkFile(const std::string& path, const CheckOptions& opt) {
  pvi::ModelFileText file = pvi::readModelFile(path);
  if (!file.text) {
    std::cerr << (file.tooLarge ? "" : "pvic: ") << file.error << '\n';
    return file.tooLarge ? kInvalid : kUsage;
  }
  pvi::FrontendResult r = pvi::runFrontend(path, std::move(*file.text), opt.maxErrors);
  bool color = opt.color == "always" || (opt.color == "auto" && isatty(STDERR_FILENO));
  if (opt.dumpAst && r.checked) pvi::dumpAst(std::cout, r.checked->program, *r.file, r.ok());
  // Lowered too (no code generation): what `pvic run` could not compile, check refuses as well.
  std::optional<pvi::LoweredModel> lowered;
  if (r.ok()) lowered = pvi::lowerModel(*r.checked, *r.diags);
  r.diags->render(std::cerr, color);
  if (!r.ok() || !lowered) return kInvalid;
  if (opt.factors) {
    if (opt.files.size() > 1) std::cout << "== " << path << '\n';
    pvi::dumpFactors(std::cout, *r.checked, *r.file);
    if (opt.files.size() > 1) std::cout << '\n';
  }
  if (opt.dumpIr || opt.dumpLlvm) {
    if (opt.dumpIr) {
      pvi::ir::print(std::cout, lowered->prior);
      pvi::ir::print(std::cout, pvi::differentiate(lowered->prior));
      if (!lowered->partitionName.empty()) {
        pvi::ir::print(std::cout, lowered->partition);
        pvi::ir::print(std::cout, pvi::differentiate(lowered->partition));
      }
    }
    if (opt.dumpLlvm) std::cout << pvi::generatedLlvm(*lowered, true);
  }
  return kValid;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pvic: compiler for .pvi probabilistic models with partitioned (federated) inference"};
  app.set_version_flag("--version", std::string("pvic 0.1.0"));
  app.footer("Exit codes: 0 success, 1 invalid model, data or options, 2 bad usage or unreadable input,\n"
             "3 the fit failed, 4 an output could not be written.\n"
             "Run 'pvic <command> --help' for the options of a command.");
  CheckOptions opt;
  std::string dumpAstFile;
  app.add_option("--dump-ast", dumpAstFile, "Parse and check FILE and print its AST")->type_name("FILE");
  std::string dumpIrFile, dumpLlvmFile;
  app.add_option("--dump-ir", dumpIrFile, "Print the factor IR of FILE and of its gradient")->type_name("FILE");
  app.add_option("--dump-llvm", dumpLlvmFile, "Print the optimised LLVM IR generated for FILE")->type_name("FILE");

  CLI::App* check = app.add_subcommand("check", "Parse and check models; report every error found");
  check->add_option("files", opt.files, "Model files (.pvi)")->required()->type_name("FILE");
  check->add_flag("--factors", opt.factors, "Print the variables and the factor each model statement belongs to");
  check->add_flag("--dump-ast", opt.dumpAst, "Print the AST, with types when the model is valid");
  check->add_option("--max-errors", opt.maxErrors, "Stop after this many errors")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1}, size_t{100000}));
  check->add_option("--color", opt.color, "Colour diagnostics")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));

  std::string runFile, buildFile;
  pvi::app::DataCli data;
  pvi::app::FitCli fit;
  pvi::app::OutputCli output;
  CLI::App* run = app.add_subcommand("run", "Compile a model (JIT), fit it to data and print the posterior summary");
  run->add_option("file", runFile, "Model file (.pvi)")->required()->type_name("FILE");
  pvi::app::addDataOptions(*run, data);
  pvi::app::addFitOptions(*run, fit, output);
  pvi::driver::BuildOptions build;
  CLI::App* buildCmd = app.add_subcommand(
      "build", "Compile a model into a standalone inference executable (fit, check-data, log-density, info)");
  buildCmd->add_option("file", buildFile, "Model file (.pvi)")->required()->type_name("FILE");
  buildCmd->add_option("-o,--output", build.output, "The executable (default: the model file's name without .pvi)")
      ->type_name("FILE");
  buildCmd->add_flag("--keep-object", build.keepObject, "Also keep the model's object file, as <output>.o");
  buildCmd
      ->add_option("--cpu", build.cpu,
                   "The CPU the model's code is compiled for: host (this machine's), or an LLVM CPU name such as "
                   "x86-64 (any x86-64 machine), x86-64-v3 (AVX2), x86-64-v4 (AVX-512)")
      ->default_val("host")
      ->type_name("NAME");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kUsage;
  }

  for (auto [file, flag] : {std::pair{&dumpAstFile, &opt.dumpAst}, std::pair{&dumpIrFile, &opt.dumpIr},
                             std::pair{&dumpLlvmFile, &opt.dumpLlvm}}) {
    if (file->empty()) continue;
    opt.files = {*file};
    *flag = true;
    return checkFile(*file, opt);
  }
  if (run->parsed()) return pvi::driver::runModel(runFile, data, fit, output);
  if (buildCmd->parsed()) return pvi::driver::buildModel(buildFile, build);
  if (!check->parsed()) {
    std::cerr << app.help();
    return kUsage;
  }
  int worst = kValid;
  for (const std::string& f : opt.files) worst = std::max(worst, checkFile(f, opt));
  return worst;
}

#include "compiler/driver/RunCommands.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "compiler/codegen/Jit.hpp"
#include "compiler/driver/LowerSource.hpp"
#include "compiler/driver/ModelFile.hpp"

namespace pvi::driver {

namespace {

namespace fs = std::filesystem;

// The front end and lowering of one file, diagnostics rendered on stderr; null when the file
// cannot be read (`tooLarge` then says whether it was refused for its size).
std::unique_ptr<LoweredSource> lowerFile(const std::string& file, bool& tooLarge) {
  ModelFileText read = readModelFile(file);
  tooLarge = read.tooLarge;
  if (!read.text) {
    std::cerr << (read.tooLarge ? "" : "pvic: ") << read.error << "\n";
    return nullptr;
  }
  std::unique_ptr<LoweredSource> out = lowerSource(file, std::move(*read.text));
  out->front.diags->render(std::cerr, isatty(STDERR_FILENO) == 1);
  if (out->model) out->model->info.name = modelName(file);
  return out;
}

}  // namespace

int runModel(const std::string& file, const app::DataCli& data, const app::FitCli& fit, const app::OutputCli& output) {
  const auto t0 = std::chrono::steady_clock::now();
  bool tooLarge = false;
  std::unique_ptr<LoweredSource> l = lowerFile(file, tooLarge);
  if (!l) return tooLarge ? app::kExitInvalid : app::kExitUsage;
  if (!l->model) return app::kExitInvalid;
  std::unique_ptr<JitModel> jit;
  try {
    jit = JitModel::compile(*l->model);
  } catch (const std::exception& e) {
    std::cerr << "pvic: error: code generation failed: " << e.what() << "\n";
    return app::kExitInvalid;
  }
  LoadedModel m;
  m.code = jit->code();
  m.info = l->model->info;
  m.source = file;
  m.compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return app::runFit("pvic run", m, data, fit, output);
}

int buildModel(const std::string& file, const BuildOptions& options) {
  bool tooLarge = false;
  std::unique_ptr<LoweredSource> l = lowerFile(file, tooLarge);
  if (!l) return tooLarge ? app::kExitInvalid : app::kExitUsage;
  if (!l->model) return app::kExitInvalid;
  const std::string out = options.output.empty() ? fs::path(file).stem().string() : options.output;
  const fs::path tmp = fs::temp_directory_path() / ("pvic-build-" + std::to_string(getpid()));
  fs::create_directories(tmp);
  const fs::path object = options.keepObject ? fs::path(out + ".o") : tmp / "model.o";
  try {
    emitObjectFile(*l->model, object.string(), options.cpu);
  } catch (const UnknownCpu& e) {
    std::cerr << "pvic: error: --cpu: " << e.what() << "\n";
    fs::remove_all(tmp);
    return app::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "pvic: error: code generation failed: " << e.what() << "\n";
    fs::remove_all(tmp);
    return app::kExitOutput;
  }
  // The runtime libraries this pvic was built with; the executable needs no LLVM.
  const char* cxx = std::getenv("CXX");
  std::string command = std::string(cxx && *cxx ? cxx : PVI_CXX) + " -o '" + out + "' '" + object.string() +
                        "' -Wl,--start-group";
  std::stringstream libs(PVI_STANDALONE_LIBS);
  for (std::string lib; std::getline(libs, lib, '|');)
    if (!lib.empty()) command += " '" + lib + "'";
  command += std::string(" -Wl,--end-group -lpthread ") + PVI_KERNELS_EXTRA_LINK;
  const int status = std::system(command.c_str());
  fs::remove_all(tmp);
  if (status != 0) {
    std::cerr << "pvic: error: linking '" << out << "' failed (" << command << ")\n";
    return app::kExitOutput;
  }
  std::cout << "built " << out << " (run '" << out << " --help')\n";
  return app::kExitOk;
}

}  // namespace pvi::driver

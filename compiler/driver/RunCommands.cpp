#include "compiler/driver/RunCommands.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "compiler/codegen/Jit.hpp"
#include "compiler/driver/Frontend.hpp"
#include "compiler/lower/Lower.hpp"

namespace pvi::driver {

namespace {

namespace fs = std::filesystem;

// The front end and lowering of one file; errors rendered on stderr. The checked program must
// outlive the lowered model, so both live here.
struct Lowered {
  FrontendResult front;
  std::optional<LoweredModel> model;
};

// The file's stem, or its directory's name for the examples' "model.pvi".
std::string modelName(const std::string& file) {
  fs::path p = fs::absolute(file);
  if (p.stem() == "model" && p.has_parent_path() && !p.parent_path().filename().empty())
    return p.parent_path().filename().string();
  return p.stem().string();
}

std::unique_ptr<Lowered> lowerFile(const std::string& file) {
  std::error_code ec;
  if (fs::is_directory(file, ec)) {
    std::cerr << "pvic: cannot read '" << file << "': it is a directory\n";
    return nullptr;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "pvic: cannot read '" << file << "': " << std::strerror(errno) << "\n";
    return nullptr;
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto out = std::make_unique<Lowered>(Lowered{runFrontend(file, text.str()), std::nullopt});
  if (out->front.ok()) out->model = lowerModel(*out->front.checked, *out->front.diags);
  out->front.diags->render(std::cerr, isatty(STDERR_FILENO) == 1);
  if (!out->model) return out;
  out->model->info.name = modelName(file);
  return out;
}

}  // namespace

int runModel(const std::string& file, const app::DataCli& data, const app::FitCli& fit, const app::OutputCli& output) {
  std::unique_ptr<Lowered> l = lowerFile(file);
  if (!l) return app::kExitUsage;
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
  return app::runFit("pvic run", m, data, fit, output);
}

int buildModel(const std::string& file, const BuildOptions& options) {
  std::unique_ptr<Lowered> l = lowerFile(file);
  if (!l) return app::kExitUsage;
  if (!l->model) return app::kExitInvalid;
  const std::string out = options.output.empty() ? fs::path(file).stem().string() : options.output;
  const fs::path tmp = fs::temp_directory_path() / ("pvic-build-" + std::to_string(getpid()));
  fs::create_directories(tmp);
  const fs::path object = options.keepObject ? fs::path(out + ".o") : tmp / "model.o";
  try {
    emitObjectFile(*l->model, object.string());
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
  command += " -Wl,--end-group -lpthread";
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

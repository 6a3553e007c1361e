#include "cli_support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <random>
#include <sstream>

namespace pvi::test {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path = std::filesystem::temp_directory_path() /
         ("pvi-cli-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(path);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

ProcessResult run(const std::string& command) {
  TempDir io;
  const std::string out = (io.path / "out").string(), err = (io.path / "err").string();
  const int status = std::system((command + " >'" + out + "' 2>'" + err + "'").c_str());
  ProcessResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

std::string example(const std::string& name) { return std::string(PVI_SOURCE_DIR) + "/examples/" + name; }
std::string pvic() { return PVIC_PATH; }

}  // namespace pvi::test

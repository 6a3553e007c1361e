#include "test_support.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace pvi::test {

std::filesystem::path sourceDir() { return PVI_SOURCE_DIR; }

std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeText(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

std::vector<std::filesystem::path> exampleModels() {
  std::vector<std::filesystem::path> out;
  for (const auto& dir : std::filesystem::directory_iterator(sourceDir() / "examples")) {
    auto model = dir.path() / "model.pvi";
    if (std::filesystem::exists(model)) out.push_back(model);
  }
  std::sort(out.begin(), out.end());
  return out;
}

FrontendResult check(const std::string& text, const std::string& path) { return runFrontend(path, text); }

namespace {
std::string slurp(int fd) {
  std::string s;
  char buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<size_t>(n));
  return s;
}
}  // namespace

ProcessResult runPvic(const std::vector<std::string>& args) {
  char outName[] = "/tmp/pvic-out-XXXXXX";
  char errName[] = "/tmp/pvic-err-XXXXXX";
  int outFd = mkstemp(outName);
  int errFd = mkstemp(errName);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(outFd, 1);
    dup2(errFd, 2);
    std::vector<char*> argv;
    std::string exe = PVIC_PATH;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ProcessResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  lseek(outFd, 0, SEEK_SET);
  lseek(errFd, 0, SEEK_SET);
  r.out = slurp(outFd);
  r.err = slurp(errFd);
  close(outFd);
  close(errFd);
  unlink(outName);
  unlink(errName);
  return r;
}

void expectMatchesFile(const std::string& actual, const std::filesystem::path& expected) {
  const char* update = std::getenv("PVI_UPDATE_DUMPS");
  if (update != nullptr && std::string(update) == "1") {
    writeText(expected, actual);
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(expected))
      << expected << " is missing; run the tests with PVI_UPDATE_DUMPS=1 to create it";
  EXPECT_EQ(actual, readText(expected)) << "dump differs from " << expected
                                        << " (PVI_UPDATE_DUMPS=1 rewrites it; review the diff)";
}

}  // namespace pvi::test

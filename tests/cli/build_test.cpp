// pvic build: a standalone executable that needs no LLVM, with fit, check-data, log-density and
// info, checked against a closed form on real data.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"

namespace pvi::test {
namespace {

namespace fs = std::filesystem;

struct Built {
  TempDir dir;
  std::string exe;
  ProcessResult build;
};

const Built& logistic() {
  static Built b = [] {
    Built out;
    out.exe = (out.dir.path / "logistic").string();
    out.build = run(pvic() + " build " + example("logistic_regression") + "/model.pvi -o " + out.exe);
    return out;
  }();
  return b;
}

std::string dataArgs() {
  const std::string ex = example("logistic_regression");
  return " --data " + ex + "/data.json --partition-data " + ex + "/data_per_client.csv";
}

TEST(PvicBuild, ExecutableNeedsNoLlvm) {
  const Built& b = logistic();
  ASSERT_EQ(b.build.exitCode, 0) << b.build.err;
  ProcessResult ldd = run("ldd " + b.exe);
  ASSERT_EQ(ldd.exitCode, 0) << ldd.err;
  EXPECT_EQ(ldd.out.find("LLVM"), std::string::npos) << ldd.out;
  EXPECT_EQ(ldd.out.find("llvm"), std::string::npos) << ldd.out;
}

TEST(PvicBuild, EverySubcommandHasHelp) {
  const Built& b = logistic();
  ASSERT_EQ(b.build.exitCode, 0) << b.build.err;
  for (const char* sub : {"", " fit", " check-data", " log-density", " info"}) {
    ProcessResult r = run(b.exe + sub + " --help");
    EXPECT_EQ(r.exitCode, 0) << sub;
    EXPECT_NE(r.out.find("--help"), std::string::npos) << sub;
  }
  ProcessResult r = run(b.exe + " frobnicate");
  EXPECT_EQ(r.exitCode, 2);
}

TEST(PvicBuild, InfoAndCheckData) {
  const Built& b = logistic();
  ASSERT_EQ(b.build.exitCode, 0) << b.build.err;
  ProcessResult info = run(b.exe + " info");
  EXPECT_EQ(info.exitCode, 0);
  EXPECT_NE(info.out.find("vector[D] beta"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("partition: client"), std::string::npos) << info.out;
  ProcessResult check = run(b.exe + " check-data" + dataArgs());
  EXPECT_EQ(check.exitCode, 0) << check.err;
  EXPECT_NE(check.out.find("58 global dimensions"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("10 partitions"), std::string::npos) << check.out;
}

// At z = 0 every e-mail has probability 1/2 and the N(0, 1) prior its mode, so the log density is
// 3680 log(1/2) - 58 log(2 pi) / 2 and d/d alpha = (number of spam e-mails) - 3680 / 2.
TEST(PvicBuild, LogDensityAtZeroMatchesTheClosedForm) {
  const Built& b = logistic();
  ASSERT_EQ(b.build.exitCode, 0) << b.build.err;
  ProcessResult r = run(b.exe + " log-density" + dataArgs());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  std::istringstream csv(slurp(example("logistic_regression") + "/data_per_client.csv"));
  std::string line;
  std::getline(csv, line);
  double rows = 0, spam = 0;
  while (std::getline(csv, line)) {
    rows += 1;
    spam += line.substr(line.find(',') + 1, 1) == "1";
  }
  ASSERT_EQ(rows, 3680);
  const double expected = rows * std::log(0.5) - 58 * 0.5 * std::log(2 * M_PI);
  EXPECT_NEAR(j["total"]["value"].get<double>(), expected, 1e-9 * std::abs(expected));
  EXPECT_NEAR(j["total"]["grad_z"][0].get<double>(), spam - rows / 2, 1e-9);
  EXPECT_EQ(j["partitions"].size(), 10u);
  EXPECT_EQ(j["names_z"][1], "beta.1");
}

// --cpu x86-64 compiles the model's code for any x86-64 machine: no AVX instructions in its
// object, the same log density and gradient as the host's build; an unknown CPU is a usage error.
TEST(PvicBuild, CodeForANamedCpu) {
#if defined(__x86_64__)
  const Built& b = logistic();
  ASSERT_EQ(b.build.exitCode, 0) << b.build.err;
  const std::string exe = (b.dir.path / "portable").string();
  const ProcessResult built =
      run(pvic() + " build " + example("logistic_regression") + "/model.pvi --cpu x86-64 --keep-object -o " + exe);
  ASSERT_EQ(built.exitCode, 0) << built.err;
  const ProcessResult dis = run("objdump -d " + exe + ".o");
  ASSERT_EQ(dis.exitCode, 0) << dis.err;
  EXPECT_NE(dis.out.find("pvi_partition_grad"), std::string::npos);
  EXPECT_EQ(dis.out.find("%ymm"), std::string::npos) << "AVX registers in code for x86-64";
  EXPECT_EQ(dis.out.find("%zmm"), std::string::npos) << "AVX-512 registers in code for x86-64";
  const ProcessResult host = run(b.exe + " log-density" + dataArgs()),
                      portable = run(exe + " log-density" + dataArgs());
  ASSERT_EQ(host.exitCode, 0) << host.err;
  ASSERT_EQ(portable.exitCode, 0) << portable.err;
  const nlohmann::json h = nlohmann::json::parse(host.out), p = nlohmann::json::parse(portable.out);
  const double v = h["total"]["value"].get<double>();
  EXPECT_NEAR(p["total"]["value"].get<double>(), v, 1e-12 * std::abs(v));
  for (size_t k = 0; k < h["total"]["grad_z"].size(); ++k) {
    const double g = h["total"]["grad_z"][k].get<double>();
    EXPECT_NEAR(p["total"]["grad_z"][k].get<double>(), g, 1e-12 * (1 + std::abs(g))) << k;
  }
  const ProcessResult bad = run(pvic() + " build " + example("logistic_regression") + "/model.pvi --cpu pentium9 -o " +
                                (b.dir.path / "never").string());
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("unknown CPU 'pentium9'"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(b.dir.path / "never"));
#else
  GTEST_SKIP() << "x86-64 CPU names";
#endif
}

TEST(PvicBuild, FitWritesDraws) {
  const Built& b = logistic();
  ASSERT_EQ(b.build.exitCode, 0) << b.build.err;
  TempDir out;
  ProcessResult r = run(b.exe + " fit" + dataArgs() +
              " --rounds 1 --local-steps 20 --draws 50 --elbo-samples 4 --progress never -o " +
              (out.path / "fit.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fs::exists(out.path / "fit.csv"));
  EXPECT_TRUE(fs::exists(out.path / "fit-summary.json"));
}

// The executable samples too (58 coefficients of the spambase logistic regression, short chains).
TEST(PvicBuild, FitWithNutsWritesChainFiles) {
  const Built& b = logistic();
  ASSERT_EQ(b.build.exitCode, 0) << b.build.err;
  TempDir out;
  ProcessResult r = run(b.exe + " fit" + dataArgs() +
                        " --algorithm nuts --chains 2 --warmup 200 --draws 100 --progress never -o " +
                        (out.path / "fit.csv").string());
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("nuts as requested (2 chains of 200 warm-up and 100 draws"), std::string::npos) << r.out;
  // Chains this short get Stan's warning, and say so.
  EXPECT_NE(r.err.find("is below 400"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(out.path / "fit_1.csv"));
  EXPECT_TRUE(fs::exists(out.path / "fit_2.csv"));
}

TEST(PvicBuild, BadModelAndUnwritableOutput) {
  TempDir dir;
  std::ofstream(dir.path / "bad.pvi") << "global { real a; } model { a ~ nornal(0, 1); }";
  ProcessResult bad = run(pvic() + " build " + (dir.path / "bad.pvi").string() + " -o " + (dir.path / "bad").string());
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_NE(bad.err.find("nornal"), std::string::npos) << bad.err;
  ProcessResult unwritable = run(pvic() + " build " + example("linear_regression") + "/model.pvi -o " +
                       (dir.path / "missing" / "dir" / "exe").string());
  EXPECT_EQ(unwritable.exitCode, 4) << unwritable.err;
}

}  // namespace
}  // namespace pvi::test

// Ahead-of-time code: the object file, linked with the kernel library into a shared library,
// gives bit-identical values and gradients to the JIT on the same inputs, and needs no LLVM.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

struct SharedLibrary {
  void* handle = nullptr;
  ~SharedLibrary() {
    if (handle) dlclose(handle);
  }
  template <class F>
  F get(const char* name) {
    return reinterpret_cast<F>(dlsym(handle, name));
  }
};

class AotTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AotTest, BitIdenticalToJit) {
  Compiled c = compileModel(readExample(GetParam()));
  ASSERT_TRUE(c.jit) << c.errors;
  auto dir = std::filesystem::temp_directory_path() / ("pvi-aot-" + GetParam() + "-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string object = (dir / "model.o").string(), library = (dir / "model.so").string();
  emitObjectFile(*c.lowered, object);
  std::string link = std::string(PVI_CXX) + " -shared -o " + library + " " + object + " " + PVI_KERNELS_LIB;
  ASSERT_EQ(std::system(link.c_str()), 0) << link;

  SharedLibrary lib{dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL)};
  ASSERT_NE(lib.handle, nullptr) << dlerror();
  pvi_model_code aot{lib.get<pvi_factor_fn>("pvi_prior_value"),     lib.get<pvi_factor_fn>("pvi_prior_grad"),
                     lib.get<pvi_dims_fn>("pvi_prior_dims"),        lib.get<pvi_factor_fn>("pvi_partition_value"),
                     lib.get<pvi_factor_fn>("pvi_partition_grad"), lib.get<pvi_dims_fn>("pvi_partition_dims"),
                     lib.get<pvi_counts_fn>("pvi_shared_counts"),  lib.get<pvi_check_fn>("pvi_shared_check"),
                     lib.get<pvi_counts_fn>("pvi_partition_counts"), lib.get<pvi_check_fn>("pvi_partition_check")};
  ASSERT_TRUE(aot.prior_value && aot.prior_grad && aot.partition_grad && aot.partition_dims && aot.shared_check &&
              aot.partition_counts);
  // The model's description travels with the object.
  const char* info = reinterpret_cast<const char*>(dlsym(lib.handle, "pvi_model_info"));
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(toJson(modelInfoFromJson(info)), toJson(c.lowered->info));
  // The shared library must not depend on LLVM.
  std::string ldd = "ldd " + library + " | grep -qi llvm";
  EXPECT_NE(std::system(ldd.c_str()), 0) << library << " links LLVM";

  std::mt19937_64 rng(11);
  GeneratedData data = randomData(*c.front.checked, 2, rng);
  CompiledModel jitModel(c.jit->code(), c.lowered->schema, data.shared, data.partitions);
  CompiledModel aotModel(aot, c.lowered->schema, data.shared, data.partitions);
  std::normal_distribution<double> nd(0.0, 0.5);
  std::vector<double> z(jitModel.globalDim()), theta(jitModel.hyperDim());
  for (double& v : z) v = nd(rng);
  for (double& v : theta) v = nd(rng);
  auto bits = [](double v) {
    uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
  };
  std::vector<double> gz1(z.size()), gz2(z.size()), gt1(theta.size()), gt2(theta.size());
  EXPECT_EQ(bits(jitModel.priorLogDensity(z.data(), theta.data(), gz1.data(), gt1.data())),
            bits(aotModel.priorLogDensity(z.data(), theta.data(), gz2.data(), gt2.data())));
  EXPECT_EQ(0, std::memcmp(gz1.data(), gz2.data(), gz1.size() * sizeof(double)));
  for (size_t j = 0; j < jitModel.numPartitions(); ++j) {
    std::vector<double> w(jitModel.localDim(j));
    for (double& v : w) v = nd(rng);
    std::vector<double> gw1(w.size()), gw2(w.size());
    EXPECT_EQ(bits(jitModel.partitionLogDensity(j, z.data(), w.data(), theta.data(), gz1.data(), gw1.data(), gt1.data())),
              bits(aotModel.partitionLogDensity(j, z.data(), w.data(), theta.data(), gz2.data(), gw2.data(), gt2.data())));
    EXPECT_EQ(0, std::memcmp(gz1.data(), gz2.data(), gz1.size() * sizeof(double)));
    EXPECT_EQ(0, std::memcmp(gw1.data(), gw2.data(), gw1.size() * sizeof(double)));
  }
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Examples, AotTest,
                         ::testing::Values("linear_regression", "logistic_regression", "hierarchical_logistic",
                                           "six_cities", "clutter", "poisson_random_effect", "bnn_classifier"));

}  // namespace
}  // namespace pvi::test

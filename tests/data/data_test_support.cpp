#include "data_test_support.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "compiler/driver/Frontend.hpp"
#include "compiler/lower/Lower.hpp"

namespace pvi::test {

const char* const kClientRegressionModel = R"(
@partition(client)
data { int<lower=1> D; real<lower=0> sigma; }
data per client {
  int<lower=0> N;
  matrix[N, D] X;
  vector[N] y;
  array[N] int<lower=0, upper=1> z;
}
global { vector[D] beta; }
model { beta ~ normal(0, 1); y ~ normal(X * beta, sigma); z ~ bernoulli_logit(X * beta); }
)";
const char* const kClientRegressionShared = R"({"D": 2, "sigma": 1.5})";


DataSchema schemaOf(const std::string& source) {
  FrontendResult front = runFrontend("test.pvi", source);
  if (!front.ok()) {
    ADD_FAILURE() << front.diags->brief();
    return {};
  }
  std::optional<LoweredModel> lowered = lowerModel(*front.checked, *front.diags);
  if (!lowered) {
    ADD_FAILURE() << front.diags->brief();
    return {};
  }
  return lowered->schema;
}

std::filesystem::path sourceDir() { return PVI_SOURCE_DIR; }
std::filesystem::path exampleDir(const std::string& name) { return sourceDir() / "examples" / name; }

std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path scratchDir(const std::string& name) {
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path d = std::filesystem::temp_directory_path() /
                            ("pvi_data_tests_" + std::to_string(::getpid())) /
                            (std::string(t->test_suite_name()) + "." + t->name()) / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

std::filesystem::path writeFile(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  return p;
}

DataInputError dataError(const std::function<void()>& f) {
  try {
    f();
  } catch (const DataInputError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected a DataInputError, got: " << e.what();
    return DataInputError(DataErrorKind::File, {}, "wrong exception");
  }
  ADD_FAILURE() << "expected a DataInputError, nothing was thrown";
  return DataInputError(DataErrorKind::File, {}, "no error");
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

SourceText text(const std::string& name, const std::string& text) { return SourceText{name, text}; }

}  // namespace pvi::test

#pragma once
// Helpers for the data input tests: schemas from small models, example paths, and catching the
// DataInputError a bad input must raise.
#include <filesystem>
#include <functional>
#include <string>

#include "runtime/data/LoadData.hpp"
#include "runtime/model/DataSchema.hpp"

namespace pvi::test {

// A regression with per-client CSV data (N, X, y, z) and shared D and sigma, and shared data for it.
extern const char* const kClientRegressionModel;
extern const char* const kClientRegressionShared;

// The data schema of a model (front end and lowering only, no JIT). Fails the test on errors.
DataSchema schemaOf(const std::string& source);

std::filesystem::path sourceDir();
std::filesystem::path exampleDir(const std::string& name);
std::string readText(const std::filesystem::path& p);

// A fresh directory under the test's temporary directory.
std::filesystem::path scratchDir(const std::string& name);
std::filesystem::path writeFile(const std::filesystem::path& p, const std::string& text);

// Runs f and returns the DataInputError it throws; fails the test (and returns an error of kind
// File with message "no error") when it throws nothing, or something else.
DataInputError dataError(const std::function<void()>& f);

bool contains(const std::string& text, const std::string& part);

// Text sources for loadDataTexts.
SourceText text(const std::string& name, const std::string& text);

}  // namespace pvi::test

#pragma once
// Runs the front end (parse + check) on one source text. Used by `pvic` and by tests.
#include <memory>
#include <optional>
#include <string>

#include "compiler/diagnostics/Diagnostics.hpp"
#include "compiler/sema/CheckedProgram.hpp"

namespace pvi {

struct FrontendResult {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<Diagnostics> diags;
  std::optional<CheckedProgram> checked;  // set when parsing succeeded (check may still have failed)

  bool ok() const { return checked.has_value() && !diags->hasErrors(); }
};

FrontendResult runFrontend(std::string path, std::string text, size_t maxErrors = 100);

}  // namespace pvi

#include "compiler/driver/Frontend.hpp"

#include "compiler/parse/Parse.hpp"
#include "compiler/sema/Check.hpp"

namespace pvi {

FrontendResult runFrontend(std::string path, std::string text, size_t maxErrors) {
  FrontendResult r;
  r.file = std::make_unique<SourceFile>(std::move(path), std::move(text));
  r.diags = std::make_unique<Diagnostics>(*r.file, maxErrors);
  try {
    std::optional<Program> program = parseProgram(*r.file, *r.diags);
    if (program) r.checked = checkProgram(std::move(*program), *r.diags);
  } catch (TooManyErrors&) {
    // The diagnostics so far are kept; the summary says the limit was reached.
  }
  return r;
}

}  // namespace pvi

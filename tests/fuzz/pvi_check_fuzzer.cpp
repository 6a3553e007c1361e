// libFuzzer target: runs the front end (parse + check) on arbitrary bytes, then renders the
// diagnostics and, for a valid model, the AST and factor dumps, as `pvic check` would.
// Built only with -DPVI_FUZZ=ON and clang; see README.md.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "compiler/ast/AstPrint.hpp"
#include "compiler/driver/Frontend.hpp"
#include "compiler/sema/FactorDump.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  pvi::FrontendResult r = pvi::runFrontend("fuzz.pvi", std::move(text));
  std::ostringstream sink;
  r.diags->render(sink, false);
  if (r.checked) pvi::dumpAst(sink, r.checked->program, *r.file, r.ok());
  if (r.ok()) pvi::dumpFactors(sink, *r.checked, *r.file);
  return 0;
}

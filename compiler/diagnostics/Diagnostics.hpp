#pragma once
// Diagnostics collected by every phase and rendered as
//   file:line:col: error: message
//      12 |   y ~ normal(x, 1);
//         |              ^
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "compiler/diagnostics/SourceFile.hpp"

namespace pvi {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  Span span;
  std::string message;
  // Attached notes ("declared here"), rendered after the diagnostic.
  std::vector<Diagnostic> notes;
};

// Thrown when the error limit is reached, to stop a phase early.
struct TooManyErrors {};

class Diagnostics {
 public:
  explicit Diagnostics(const SourceFile& file, size_t maxErrors = 100) : file_(file), maxErrors_(maxErrors) {}

  Diagnostic& error(Span span, std::string message);
  Diagnostic& warning(Span span, std::string message);
  static void note(Diagnostic& d, Span span, std::string message);

  size_t errorCount() const { return errors_; }
  size_t warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ > 0; }
  const SourceFile& file() const { return file_; }

  // Sorted by position (stable), so the order does not depend on the phase that found them.
  std::vector<Diagnostic> sorted() const;

  // Renders every diagnostic, then a summary line when there are errors.
  void render(std::ostream& out, bool color = false) const;
  // One line per diagnostic, "line:col: severity: message", for tests.
  std::string brief() const;

 private:
  Diagnostic& add(Severity s, Span span, std::string message);

  const SourceFile& file_;
  size_t maxErrors_;
  size_t errors_ = 0;
  size_t warnings_ = 0;
  bool truncated_ = false;
  std::vector<Diagnostic> list_;
  Diagnostic spare_;  // returned for warnings past the limit, which are not kept
};

const char* severityName(Severity s);

}  // namespace pvi

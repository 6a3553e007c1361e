#pragma once
// Turns ANTLR's lexer and parser errors into diagnostics with short, readable messages.
#include <antlr4-runtime.h>

#include "compiler/diagnostics/Diagnostics.hpp"

namespace pvi {

class SyntaxErrorListener : public antlr4::BaseErrorListener {
 public:
  explicit SyntaxErrorListener(Diagnostics& diags) : diags_(diags) {}
  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, size_t line, size_t col,
                   const std::string& msg, std::exception_ptr e) override;

 private:
  Diagnostics& diags_;
};

}  // namespace pvi

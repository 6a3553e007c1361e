#include "compiler/parse/Parse.hpp"

#include <antlr4-runtime.h>

#include "PVILexer.h"
#include "PVIParser.h"
#include "compiler/parse/AstBuilder.hpp"
#include "compiler/parse/SyntaxErrors.hpp"

namespace pvi {

namespace {

// Stops parsing when rule nesting exceeds kMaxNesting.
class NestingGuard : public antlr4::tree::ParseTreeListener {
 public:
  struct TooDeep {
    antlr4::Token* at;
  };
  explicit NestingGuard(antlr4::Parser& parser) : parser_(parser) {}
  void enterEveryRule(antlr4::ParserRuleContext*) override {
    if (++depth_ > kMaxNesting) throw TooDeep{parser_.getCurrentToken()};
  }
  void exitEveryRule(antlr4::ParserRuleContext*) override { --depth_; }
  void visitTerminal(antlr4::tree::TerminalNode*) override {}
  void visitErrorNode(antlr4::tree::ErrorNode*) override {}

 private:
  antlr4::Parser& parser_;
  int depth_ = 0;
};

// ANTLR has no string literals to hide a comment opener in, so a plain scan finds a `/*` that is
// never closed; the lexer alone would report it as stray `/` and `*` tokens.
bool reportUnterminatedComment(const SourceFile& file, Diagnostics& diags) {
  const std::string& t = file.text();
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i] == '/' && t[i + 1] == '/') {
      while (i < t.size() && t[i] != '\n') ++i;
    } else if (t[i] == '/' && t[i + 1] == '*') {
      size_t close = t.find("*/", i + 2);
      if (close == std::string::npos) {
        uint32_t cp = file.codePointOfByte(i);
        diags.error(Span{cp, cp + 2}, "unterminated comment: '/*' has no closing '*/'");
        return true;
      }
      i = close + 1;
    }
  }
  return false;
}

}  // namespace

std::optional<Program> parseProgram(const SourceFile& file, Diagnostics& diags) {
  if (auto bad = file.firstInvalidUtf8()) {
    uint32_t cp = file.codePointOfByte(*bad);
    char hex[8];
    std::snprintf(hex, sizeof hex, "%02X", static_cast<unsigned char>(file.text()[*bad]));
    diags.error(Span{cp, cp + 1}, std::string("invalid UTF-8: byte 0x") + hex + " does not start a valid sequence");
    return std::nullopt;
  }
  if (reportUnterminatedComment(file, diags)) return std::nullopt;

  antlr4::ANTLRInputStream input(file.text());
  PVILexer lexer(&input);
  SyntaxErrorListener listener(diags);
  lexer.removeErrorListeners();
  lexer.addErrorListener(&listener);
  antlr4::CommonTokenStream tokens(&lexer);
  // Brackets nested twice as deep as the rules may be are refused before parsing: ANTLR's
  // prediction would first look ahead through all of them (10,000 nested { } took 5 s). Each
  // bracket opens at least one rule, so the parse would stop anyway; below twice the limit it
  // does, where the rules reach it (the position it reports).
  tokens.fill();
  int depth = 0;
  for (antlr4::Token* t : tokens.getTokens()) {
    const std::string text = t->getText();
    if (text == "{" || text == "(" || text == "[") {
      if (++depth <= 2 * kMaxNesting) continue;
      const Span at{static_cast<uint32_t>(t->getStartIndex()), static_cast<uint32_t>(t->getStartIndex() + 1)};
      diags.error(
          at, "nesting is too deep: more than " + std::to_string(kMaxNesting) + " levels of expressions or statements");
      return std::nullopt;
    }
    if (text == "}" || text == ")" || text == "]") --depth;
  }
  PVIParser parser(&tokens);
  parser.removeErrorListeners();
  NestingGuard guard(parser);
  parser.addParseListener(&guard);

  PVIParser::ProgramContext* tree = nullptr;
  try {
    // Two-stage parsing: the fast SLL mode succeeds on almost every valid program; only a
    // program it rejects is parsed again in full LL mode, which also reports the errors.
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    try {
      tree = parser.program();
    } catch (antlr4::ParseCancellationException&) {
      tokens.seek(0);
      parser.reset();
      parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::LL);
      parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
      parser.addErrorListener(&listener);
      tree = parser.program();
    }
  } catch (NestingGuard::TooDeep& e) {
    Span at{static_cast<uint32_t>(e.at->getStartIndex()), static_cast<uint32_t>(e.at->getStartIndex() + 1)};
    diags.error(at, "nesting is too deep: more than " + std::to_string(kMaxNesting) +
                        " levels of expressions or statements");
    return std::nullopt;
  }
  if (diags.hasErrors()) return std::nullopt;
  return buildAst(tree, diags);
}

}  // namespace pvi

#include "compiler/parse/SyntaxErrors.hpp"

#include "PVIParser.h"

namespace pvi {

namespace {

std::string describeToken(antlr4::Token* t) {
  if (t == nullptr || t->getType() == antlr4::Token::EOF) return "end of file";
  std::string text = t->getText();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return "'" + text + "'";
}

std::string friendlyTokenName(std::string name) {
  if (name == "IDENT") return "a name";
  if (name == "INT_LITERAL") return "an integer";
  if (name == "REAL_LITERAL") return "a real number";
  return name;
}

std::string describeExpected(antlr4::Parser* parser, const antlr4::misc::IntervalSet& expected) {
  std::vector<std::string> names;
  for (size_t type : expected.toList()) {
    if (type == antlr4::Token::EOF) {
      names.push_back("end of file");
      continue;
    }
    names.push_back(friendlyTokenName(parser->getVocabulary().getDisplayName(type)));
  }
  if (names.empty() || names.size() > 10) return "";
  std::string out = "; expected ";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

}  // namespace

void SyntaxErrorListener::syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, size_t,
                                      size_t, const std::string& msg, std::exception_ptr) {
  auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
  if (parser == nullptr) {
    // Lexer: the only error is a character that starts no token.
    auto* lexer = dynamic_cast<antlr4::Lexer*>(recognizer);
    size_t start = lexer->tokenStartCharIndex;
    std::string ch = msg.substr(msg.find("at: ") == std::string::npos ? 0 : msg.find("at: ") + 4);
    if (ch.size() > 3) ch = ch.substr(0, 3) + "...'";
    Span at{static_cast<uint32_t>(start), static_cast<uint32_t>(start + 1)};
    diags_.error(at, "unexpected character " + ch);
    return;
  }
  Span at{static_cast<uint32_t>(offending->getStartIndex()),
          static_cast<uint32_t>(offending->getStopIndex() + 1)};
  if (offending->getType() == antlr4::Token::EOF) at.end = at.begin;
  std::string message;
  if (msg.rfind("missing ", 0) == 0) {
    // ANTLR: "missing ';' at 'x'": the parser inserted the token to recover.
    size_t atPos = msg.rfind(" at ");
    message = "expected " + friendlyTokenName(msg.substr(8, atPos - 8)) + " before " + describeToken(offending);
  } else {
    antlr4::misc::IntervalSet expected;
    try {
      expected = parser->getExpectedTokens();
    } catch (...) {
    }
    const std::string expectedText = describeExpected(parser, expected);
    message = "unexpected " + describeToken(offending) + expectedText;
    if (offending->getText() == "functions" && expectedText.find("'model'") != std::string::npos)
      message += "; the 'functions' block comes first, before the data block";
  }
  diags_.error(at, "syntax error: " + message);
}

}  // namespace pvi

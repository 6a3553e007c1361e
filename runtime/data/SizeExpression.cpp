#include "runtime/data/SizeExpression.hpp"

#include <cctype>

namespace pvi {

namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Recursive descent over the text; every step yields nullopt once something is not evaluable.
class Evaluator {
 public:
  Evaluator(const std::string& s, const SizeEnvironment& env) : s_(s), env_(env) {}

  std::optional<int64_t> run() {
    std::optional<int64_t> v = sum();
    skip();
    if (pos_ != s_.size()) return std::nullopt;
    return v;
  }

 private:
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool take(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  std::optional<int64_t> sum() {
    std::optional<int64_t> a = product();
    for (;;) {
      if (take('+')) a = combine(a, product(), '+');
      else if (take('-')) a = combine(a, product(), '-');
      else return a;
    }
  }
  std::optional<int64_t> product() {
    std::optional<int64_t> a = unary();
    for (;;) {
      if (take('*')) a = combine(a, unary(), '*');
      else if (take('/')) a = combine(a, unary(), '/');
      else if (take('%')) a = combine(a, unary(), '%');
      else return a;
    }
  }
  std::optional<int64_t> unary() {
    if (take('-')) return combine(int64_t{0}, unary(), '-');
    if (take('+')) return unary();
    return primary();
  }
  std::optional<int64_t> primary() {
    skip();
    if (take('(')) {
      std::optional<int64_t> v = sum();
      if (!take(')')) return fail();
      return v;
    }
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        int d = s_[pos_++] - '0';
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v)) return fail();
      }
      if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E')) return fail();
      return v;
    }
    if (pos_ < s_.size() && identStart(s_[pos_])) {
      size_t start = pos_;
      while (pos_ < s_.size() && identChar(s_[pos_])) ++pos_;
      std::string name = s_.substr(start, pos_ - start);
      if (take('(')) return fail();  // a function call
      auto it = env_.find(name);
      if (it == env_.end()) return fail();
      return it->second;
    }
    return fail();
  }

  std::optional<int64_t> fail() {
    pos_ = s_.size() + 1;  // never a complete parse
    return std::nullopt;
  }

  static std::optional<int64_t> combine(std::optional<int64_t> a, std::optional<int64_t> b, char op) {
    if (!a || !b) return std::nullopt;
    int64_t r = 0;
    switch (op) {
      case '+': if (__builtin_add_overflow(*a, *b, &r)) return std::nullopt; return r;
      case '-': if (__builtin_sub_overflow(*a, *b, &r)) return std::nullopt; return r;
      case '*': if (__builtin_mul_overflow(*a, *b, &r)) return std::nullopt; return r;
      default:  // integer division truncates, as in Stan
        if (*b == 0 || (*a == INT64_MIN && *b == -1)) return std::nullopt;
        return op == '/' ? *a / *b : *a % *b;
    }
  }

  const std::string& s_;
  const SizeEnvironment& env_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<int64_t> evaluateSize(const std::string& expr, const SizeEnvironment& env) {
  return Evaluator(expr, env).run();
}

std::vector<std::string> sizeNames(const std::string& expr) {
  std::vector<std::string> names;
  for (size_t i = 0; i < expr.size();) {
    if (std::isdigit(static_cast<unsigned char>(expr[i]))) {  // a number, maybe 1e5: skip it whole
      while (i < expr.size() && (identChar(expr[i]) || expr[i] == '.')) ++i;
      continue;
    }
    if (!identStart(expr[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < expr.size() && identChar(expr[i])) ++i;
    size_t j = i;
    while (j < expr.size() && expr[j] == ' ') ++j;
    if (j < expr.size() && expr[j] == '(') continue;
    names.push_back(expr.substr(start, i - start));
  }
  return names;
}

}  // namespace pvi

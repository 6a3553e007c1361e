#include "runtime/data/NumberText.hpp"

#include <cctype>
#include <charconv>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace pvi {

std::string_view trimBlanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  return true;
}

// Decimal number syntax: digits [. digits] | . digits, then an optional exponent.
bool isDecimal(std::string_view s) {
  size_t i = 0, digits = 0;
  while (i < s.size() && isDigit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && isDigit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t start = i;
    while (i < s.size() && isDigit(s[i])) ++i;
    if (i == start) return false;
  }
  return i == s.size();
}

std::optional<double> special(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (equalsIgnoreCase(s, "nan")) return std::numeric_limits<double>::quiet_NaN();
  if (equalsIgnoreCase(s, "inf") || equalsIgnoreCase(s, "infinity"))
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  return std::nullopt;
}

// For a decimal number out of the double range: true when it is tiny rather than huge, from
// the position of its first non-zero digit and its exponent.
bool underflows(std::string_view s) {
  size_t e = s.find_first_of("eE");
  std::string_view mantissa = s.substr(0, e);
  long long exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view x = s.substr(e + 1);
    bool negative = !x.empty() && x.front() == '-';
    if (!x.empty() && (x.front() == '-' || x.front() == '+')) x.remove_prefix(1);
    for (char c : x) exponent = std::min<long long>(exponent * 10 + (c - '0'), 1LL << 40);
    if (negative) exponent = -exponent;
  }
  size_t dot = mantissa.find('.');
  if (dot == std::string_view::npos) dot = mantissa.size();
  size_t first = mantissa.find_first_of("123456789");
  if (first == std::string_view::npos) return true;
  long long magnitude = first < dot ? static_cast<long long>(dot - first) - 1 : -static_cast<long long>(first - dot);
  return magnitude + exponent < 0;
}

}  // namespace

bool isSpecialRealText(std::string_view text) { return special(trimBlanks(text)).has_value(); }

IntParse parseIntText(std::string_view text) {
  std::string_view s = trimBlanks(text);
  std::string_view digits = s;
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) digits.remove_prefix(1);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
    bool real = isDecimal(digits) || special(s).has_value();
    return {real ? NumberStatus::NotAnInt : NumberStatus::NotANumber};
  }
  int64_t v = 0;
  // from_chars takes '-' but not '+'.
  std::string_view parse = !s.empty() && s.front() == '+' ? s.substr(1) : s;
  auto [end, ec] = std::from_chars(parse.data(), parse.data() + parse.size(), v);
  if (ec == std::errc::result_out_of_range) return {NumberStatus::OutOfRange};
  if (ec != std::errc() || end != parse.data() + parse.size()) return {NumberStatus::NotANumber};
  return {NumberStatus::Ok, v};
}

RealParse parseRealText(std::string_view text) {
  std::string_view s = trimBlanks(text);
  if (std::optional<double> v = special(s)) return {NumberStatus::Ok, *v};
  std::string_view body = s;
  if (!body.empty() && (body.front() == '+' || body.front() == '-')) body.remove_prefix(1);
  if (!isDecimal(body)) return {NumberStatus::NotANumber};
  std::string_view parse = !s.empty() && s.front() == '+' ? s.substr(1) : s;
  double v = 0;
  auto [end, ec] = std::from_chars(parse.data(), parse.data() + parse.size(), v);
  if (ec == std::errc::result_out_of_range) {
    // Too small for a double rounds to zero, as JSON parsers and strtod do; too large is refused.
    if (underflows(body)) return {NumberStatus::Ok, s.front() == '-' ? -0.0 : 0.0};
    return {NumberStatus::OutOfRange};
  }
  if (ec != std::errc() || end != parse.data() + parse.size()) return {NumberStatus::NotANumber};
  return {NumberStatus::Ok, v};
}

}  // namespace pvi

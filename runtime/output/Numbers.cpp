#include "runtime/output/Numbers.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace pvi::output {

void appendDouble(std::string& out, double x) {
  if (std::isnan(x)) {
    out += "nan";
    return;
  }
  if (std::isinf(x)) {
    out += x > 0 ? "inf" : "-inf";
    return;
  }
  std::array<char, 32> buf;
  const auto result = std::to_chars(buf.data(), buf.data() + buf.size(), x);  // shortest round trip
  out.append(buf.data(), result.ptr);
}

namespace {

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::optional<double> parseDouble(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::string_view body = text;
  bool negative = false;
  if (body.front() == '+' || body.front() == '-') {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (equalsIgnoringCase(body, "nan")) return std::numeric_limits<double>::quiet_NaN();
  if (equalsIgnoringCase(body, "inf") || equalsIgnoringCase(body, "infinity")) {
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  }
  if (body.empty() || body.front() == '+' || body.front() == '-') return std::nullopt;
  double value = 0.0;
  const auto result = std::from_chars(body.data(), body.data() + body.size(), value);
  // Refused: trailing text, or a valid number whose magnitude overflows or underflows
  // (result_out_of_range).
  if (result.ptr != body.data() + body.size() || result.ec != std::errc()) return std::nullopt;
  return negative ? -value : value;
}

}  // namespace pvi::output

#pragma once
// Numbers in output files: the shortest decimal text that reads back to the same double
// (std::to_chars), and a strict parser for it. Non-finite values are written as Stan CSV does:
// "nan", "inf", "-inf"; the parser also accepts "NaN", "+inf", "Inf", "infinity".
#include <optional>
#include <string>
#include <string_view>

namespace pvi::output {

void appendDouble(std::string& out, double x);

// The whole of `text` must be a number; std::nullopt otherwise.
std::optional<double> parseDouble(std::string_view text);

}  // namespace pvi::output

#pragma once
// Numbers written as text (CSV cells, CmdStan's special JSON strings), parsed strictly: nothing
// is coerced. An int is an optional sign and decimal digits within int64 ("1.0" and "1e3" are
// not ints). A real is a decimal number with an optional exponent, or NaN / Inf / Infinity
// (any case, optional sign). Surrounding spaces and tabs are ignored.
#include <cstdint>
#include <optional>
#include <string_view>

namespace pvi {

enum class NumberStatus { Ok, NotANumber, NotAnInt, OutOfRange };

struct IntParse {
  NumberStatus status;
  int64_t value = 0;
};
struct RealParse {
  NumberStatus status;
  double value = 0;
};

IntParse parseIntText(std::string_view text);
RealParse parseRealText(std::string_view text);

// `text` without its leading and trailing spaces and tabs (the blanks every CSV cell may carry).
std::string_view trimBlanks(std::string_view text);

// True when the text is NaN / Inf / Infinity with an optional sign (any case).
bool isSpecialRealText(std::string_view text);

}  // namespace pvi

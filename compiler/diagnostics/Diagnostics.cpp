#include "compiler/diagnostics/Diagnostics.hpp"

#include <algorithm>
#include <cctype>
#include <ostream>
#include <sstream>

namespace pvi {

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

namespace {
// Messages quote names and source text; a pathological input (a 1 MB name) must not make a
// pathological message.
constexpr size_t kMaxMessage = 400;

// Inlined functions' variables are named x~3 (compiler/desugar/InlineFunctions.hpp); messages
// show them as written, x.
std::string withoutInlineSuffixes(const std::string& m) {
  std::string out;
  out.reserve(m.size());
  for (size_t i = 0; i < m.size(); ++i) {
    const bool afterName = i > 0 && (std::isalnum(static_cast<unsigned char>(m[i - 1])) || m[i - 1] == '_');
    if (m[i] == '~' && afterName && i + 1 < m.size() && std::isdigit(static_cast<unsigned char>(m[i + 1]))) {
      while (i + 1 < m.size() && std::isdigit(static_cast<unsigned char>(m[i + 1]))) ++i;
      continue;
    }
    out += m[i];
  }
  return out;
}

std::string bounded(std::string m) {
  if (m.find('~') != std::string::npos) m = withoutInlineSuffixes(m);
  if (m.size() <= kMaxMessage) return m;
  size_t cut = kMaxMessage - 3;
  while (cut > 0 && (static_cast<unsigned char>(m[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return m.substr(0, cut) + "...";
}
}  // namespace

Diagnostic& Diagnostics::add(Severity s, Span span, std::string message) {
  list_.push_back(Diagnostic{s, span, bounded(std::move(message)), {}});
  return list_.back();
}

Diagnostic& Diagnostics::error(Span span, std::string message) {
  // The same error at the same place once (a transformed block's statements are checked twice).
  const std::string shown = bounded(message);
  for (const Diagnostic& d : list_)
    if (d.severity == Severity::Error && d.span.begin == span.begin && d.span.end == span.end && d.message == shown) {
      spare_ = Diagnostic{Severity::Error, span, {}, {}};
      return spare_;
    }
  if (errors_ >= maxErrors_) {  // one more than the limit: stop the phase
    truncated_ = true;
    throw TooManyErrors{};
  }
  ++errors_;
  return add(Severity::Error, span, std::move(message));
}

Diagnostic& Diagnostics::warning(Span span, std::string message) {
  ++warnings_;
  if (warnings_ > maxErrors_) {  // counted, not kept: the summary line reports them
    spare_ = Diagnostic{Severity::Warning, span, {}, {}};
    return spare_;
  }
  return add(Severity::Warning, span, std::move(message));
}

void Diagnostics::note(Diagnostic& d, Span span, std::string message) {
  d.notes.push_back(Diagnostic{Severity::Note, span, bounded(std::move(message)), {}});
}

std::vector<Diagnostic> Diagnostics::sorted() const {
  std::vector<Diagnostic> out = list_;
  std::stable_sort(out.begin(), out.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.span.begin < b.span.begin; });
  return out;
}

namespace {

void renderOne(std::ostream& out, const SourceFile& file, const Diagnostic& d, bool color) {
  LineCol lc = file.lineCol(d.span.begin);
  const char* bold = color ? "\033[1m" : "";
  const char* reset = color ? "\033[0m" : "";
  const char* sevColor = !color ? "" : d.severity == Severity::Error ? "\033[1;31m"
                                     : d.severity == Severity::Warning ? "\033[1;35m" : "\033[1;36m";
  out << bold << file.path() << ':' << lc.line << ':' << lc.col << ": " << reset << sevColor
      << severityName(d.severity) << ": " << reset << bold << d.message << reset << '\n';

  std::string_view line = file.lineText(lc.line);
  // A very long line is shown as a window around the caret, marked with "...".
  constexpr int kWindow = 160;
  int firstCol = 1;
  std::string prefix, suffix;
  if (line.size() > static_cast<size_t>(kWindow)) {
    firstCol = std::max(1, lc.col - kWindow / 2);
    size_t b = 0;
    for (int c = 1; c < firstCol && b < line.size(); ++c) {
      ++b;
      while (b < line.size() && (static_cast<unsigned char>(line[b]) & 0xC0) == 0x80) ++b;
    }
    size_t e = b;
    for (int c = 0; c < kWindow && e < line.size(); ++c) {
      ++e;
      while (e < line.size() && (static_cast<unsigned char>(line[e]) & 0xC0) == 0x80) ++e;
    }
    if (b > 0) prefix = "...";
    if (e < line.size()) suffix = "...";
    line = line.substr(b, e - b);
  }
  std::string number = std::to_string(lc.line);
  std::string gutter(number.size() + 2, ' ');
  out << ' ' << number << " | " << prefix << line << suffix << '\n';

  // The caret line copies tabs from the source line so the caret stays aligned.
  std::string marks(prefix.size(), ' ');
  int col = firstCol;
  for (size_t i = 0; i < line.size() && col < lc.col; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;  // UTF-8 continuation byte
    marks += c == '\t' ? '\t' : ' ';
    ++col;
  }
  LineCol endLc = file.lineCol(d.span.end > d.span.begin ? d.span.end - 1 : d.span.begin);
  int width = endLc.line == lc.line ? std::min(endLc.col - lc.col + 1, kWindow) : 1;
  marks += '^';
  if (width > 1) marks += std::string(static_cast<size_t>(width - 1), '~');
  out << gutter << "| " << (color ? "\033[1;32m" : "") << marks << reset << '\n';
}

}  // namespace

void Diagnostics::render(std::ostream& out, bool color) const {
  for (const Diagnostic& d : sorted()) {
    renderOne(out, file_, d, color);
    for (const Diagnostic& n : d.notes) renderOne(out, file_, n, color);
  }
  if (truncated_) out << file_.path() << ": more than " << errors_ << " errors, stopping\n";
  if (warnings_ > maxErrors_) out << file_.path() << ": " << warnings_ - maxErrors_ << " more warnings not shown\n";
  if (errors_ > 0 || warnings_ > 0) {
    out << file_.path() << ": " << errors_ << (errors_ == 1 ? " error" : " errors") << ", " << warnings_
        << (warnings_ == 1 ? " warning" : " warnings") << '\n';
  }
}

std::string Diagnostics::brief() const {
  std::ostringstream out;
  for (const Diagnostic& d : sorted()) {
    LineCol lc = file_.lineCol(d.span.begin);
    out << lc.line << ':' << lc.col << ": " << severityName(d.severity) << ": " << d.message << '\n';
  }
  return out.str();
}

}  // namespace pvi

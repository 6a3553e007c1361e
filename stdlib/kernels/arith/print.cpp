// Stan's print, reject and fatal_error for generated code. A statement's pieces are appended to a
// per-thread line, which pvi_print_end writes to stderr with one write, so that the lines of
// evaluations running on several threads do not interleave. Values are printed as C's %g (six
// significant digits, as Stan's console output), containers as [a,b,c] over their elements in
// memory order. reject() runs on every evaluation it rejects (a sampler or a fit may evaluate
// thousands of points), so its messages are shown up to a limit per process.
#include <atomic>
#include <cstdio>
#include <string>

#include "stdlib/kernels/arith/arith.h"

namespace {
thread_local std::string line;
thread_local std::string lastMessage;  // of the last reject or fatal_error, whether shown or not
thread_local const char* context = nullptr;  // pvi_print_context's
thread_local int64_t firstNonFinite = -1;    // pvi_note_nonfinite's
std::atomic<int64_t> rejectMessages{0};
constexpr int64_t kMaxRejectMessages = 20;

void appendReal(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  line += buf;
}

template <class T, class F>
void appendAll(int64_t n, const T* x, int64_t rank, F append) {
  if (rank == 0) {
    append(x[0]);
    return;
  }
  line += '[';
  for (int64_t i = 0; i < n; ++i) {
    if (i) line += ',';
    append(x[i]);
  }
  line += ']';
}

void write(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stderr); }
}  // namespace

extern "C" {

void pvi_print_begin(void) { line.clear(); }
void pvi_print_text(const char* text) { line += text; }
void pvi_print_int(int64_t v) { line += std::to_string(v); }
void pvi_print_ints(int64_t n, const int64_t* x, int64_t rank) {
  appendAll(n, x, rank, [](int64_t v) { line += std::to_string(v); });
}
void pvi_print_reals(int64_t n, const double* x, int64_t rank) { appendAll(n, x, rank, appendReal); }

const char* pvi_last_message(void) { return lastMessage.c_str(); }

void pvi_begin_evaluation(const char* where) {
  context = where;
  lastMessage.clear();
  firstNonFinite = -1;
}

void pvi_print_context(const char* where) { context = where; }

void pvi_set_reject_message(const char* text) { lastMessage = text; }

void pvi_note_nonfinite(int64_t site) {
  if (firstNonFinite < 0) firstNonFinite = site;
}

int64_t pvi_take_nonfinite(void) {
  const int64_t site = firstNonFinite;
  firstNonFinite = -1;
  return site;
}

void pvi_print_end(int64_t kind) {
  if (kind != 0) lastMessage = line;
  const std::string where = context != nullptr ? std::string(" (") + context + ")" : std::string();
  if (kind == 1) {
    const int64_t k = rejectMessages++;
    if (k > kMaxRejectMessages) return;
    write(k == kMaxRejectMessages ? std::string("reject: (further reject messages are not shown)\n")
                                  : "reject" + where + ": " + line + "\n");
    return;
  }
  write((kind == 2 ? "fatal_error" + where + ": " : std::string()) + line + "\n");
}

}  // extern "C"

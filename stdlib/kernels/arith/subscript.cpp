// General subscripts (slices, multi-indices, rows, strided parts of arrays): read, gradient,
// store and the store's gradient, side by side. See arith.h for the selection format.
#include <cstring>

#include "stdlib/kernels/arith/arith.h"

namespace {

constexpr int kMaxRank = 8;

// The selection of one call: for each dimension its count and the source index of each of its
// positions, walked as an odometer over the selected positions (dimension 0 fastest).
struct Selection {
  int64_t rank;
  int64_t count[kMaxRank];
  int64_t stride[kMaxRank];
  const int64_t* spec;
  const int64_t* const* lists;

  // 0-based source index of position p of dimension d.
  int64_t source(int64_t d, int64_t p) const {
    switch (spec[3 * d]) {
      case 1: return spec[3 * d + 1] - 1;
      case 2: return spec[3 * d + 1] - 1 + p;
      case 3: return lists[d][p] - 1;
      default: return p;
    }
  }
};

// Fills `s` and checks every index; false when one lies outside its dimension.
bool prepare(int64_t r, const int64_t* dims, const int64_t* spec, const int64_t* const* lists, Selection& s) {
  if (r < 0 || r > kMaxRank) return false;
  s.rank = r;
  s.spec = spec;
  s.lists = lists;
  int64_t stride = 1;
  for (int64_t d = 0; d < r; ++d) {
    int64_t n = dims[d], a = spec[3 * d + 1], b = spec[3 * d + 2];
    s.stride[d] = stride;
    stride *= n;
    switch (spec[3 * d]) {
      case 1:
        if (a < 1 || a > n) return false;
        s.count[d] = 1;
        break;
      case 2:
        s.count[d] = b >= a ? b - a + 1 : 0;
        if (s.count[d] > 0 && (a < 1 || b > n)) return false;
        break;
      case 3:
        s.count[d] = b;
        for (int64_t i = 0; i < b; ++i)
          if (lists[d][i] < 1 || lists[d][i] > n) return false;
        break;
      default: s.count[d] = n; break;
    }
  }
  return true;
}

// Calls f(k, offset) for the k-th selected element (in output order) at source `offset`;
// backwards visits them last to first.
template <class F>
void forEach(const Selection& s, bool backwards, F f) {
  int64_t total = 1;
  for (int64_t d = 0; d < s.rank; ++d) total *= s.count[d];
  for (int64_t j = 0; j < total; ++j) {
    int64_t k = backwards ? total - 1 - j : j;
    int64_t rest = k, offset = 0;
    for (int64_t d = 0; d < s.rank; ++d) {
      int64_t p = rest % s.count[d];
      rest /= s.count[d];
      offset += s.source(d, p) * s.stride[d];
    }
    f(k, offset);
  }
}

}  // namespace

extern "C" {

int64_t pvi_subscript(int64_t r, const int64_t* dims, const int64_t* spec, const int64_t* const* lists,
                      const void* base, void* out) {
  Selection s;
  if (!prepare(r, dims, spec, lists, s)) return 1;
  const char* from = static_cast<const char*>(base);
  char* to = static_cast<char*>(out);
  forEach(s, false, [&](int64_t k, int64_t offset) { std::memcpy(to + 8 * k, from + 8 * offset, 8); });
  return 0;
}

void pvi_subscript_grad(int64_t r, const int64_t* dims, const int64_t* spec, const int64_t* const* lists,
                        const double* g_out, double* g_base) {
  Selection s;
  if (!prepare(r, dims, spec, lists, s)) return;
  forEach(s, false, [&](int64_t k, int64_t offset) { g_base[offset] += g_out[k]; });
}

int64_t pvi_subscript_store(int64_t r, const int64_t* dims, const int64_t* spec, const int64_t* const* lists,
                            const void* value, void* base) {
  Selection s;
  if (!prepare(r, dims, spec, lists, s)) return 1;
  const char* from = static_cast<const char*>(value);
  char* to = static_cast<char*>(base);
  forEach(s, false, [&](int64_t k, int64_t offset) { std::memcpy(to + 8 * offset, from + 8 * k, 8); });
  return 0;
}

void pvi_subscript_store_grad(int64_t r, const int64_t* dims, const int64_t* spec, const int64_t* const* lists,
                              double* g_base, double* g_value) {
  Selection s;
  if (!prepare(r, dims, spec, lists, s)) return;
  // Last to first, zeroing as we go: of several writes to one element only the last one reached
  // the result, so only it gets the adjoint.
  forEach(s, true, [&](int64_t k, int64_t offset) {
    if (g_value) g_value[k] += g_base[offset];
    g_base[offset] = 0.0;
  });
}

}  // extern "C"

// Chooses the level of simd_loops.hpp once per process.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "stdlib/kernels/simd/simd_loops.hpp"

namespace pvi::kern {

namespace {

// The levels built (stdlib/CMakeLists.txt defines PVI_SIMD_X86 where the wider ones are).
const SimdLoops* const kLevels[] = {
    &pvi_simd_loops_baseline,
#if defined(PVI_SIMD_X86)
    &pvi_simd_loops_avx2,
    &pvi_simd_loops_avx512,
#endif
};
constexpr int kLevelCount = static_cast<int>(sizeof kLevels / sizeof kLevels[0]);

bool runsOnThisCpu(const SimdLoops* loops) {
#if defined(PVI_SIMD_X86)
  // The levels are built with -march=x86-64-v3 and -march=x86-64-v4.
  if (loops == &pvi_simd_loops_avx2) return __builtin_cpu_supports("x86-64-v3");
  if (loops == &pvi_simd_loops_avx512) return __builtin_cpu_supports("x86-64-v4");
#endif
  return loops == &pvi_simd_loops_baseline;
}

const SimdLoops* choose() {
#if defined(PVI_SIMD_X86)
  __builtin_cpu_init();  // in case a kernel runs before the CPU model is initialised (static constructors)
#endif
  const char* wanted = std::getenv("PVI_SIMD");
  if (wanted != nullptr && *wanted != '\0') {
    for (const SimdLoops* loops : kLevels)
      if (std::strcmp(loops->level, wanted) == 0) {
        if (runsOnThisCpu(loops)) return loops;
        std::fprintf(stderr, "pvi: warning: PVI_SIMD=%s is not supported by this CPU; using the widest level it runs\n",
                     wanted);
        wanted = nullptr;
        break;
      }
    if (wanted != nullptr)
      std::fprintf(stderr, "pvi: warning: PVI_SIMD=%s is not a level built here (baseline, avx2, avx512)\n", wanted);
  }
  for (int k = kLevelCount - 1; k > 0; --k)
    if (runsOnThisCpu(kLevels[k])) return kLevels[k];
  return kLevels[0];
}

}  // namespace

const SimdLoops* const* simdLevels(int* count) {
  *count = kLevelCount;
  return kLevels;
}

bool simdRunsHere(const SimdLoops& loops) { return runsOnThisCpu(&loops); }

const SimdLoops& simdLoops() {
  static const SimdLoops* const chosen = choose();
  return *chosen;
}

}  // namespace pvi::kern

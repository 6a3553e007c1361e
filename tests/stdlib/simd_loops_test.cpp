// The vector loops of stdlib/kernels/simd (simd_loops.hpp), every level this CPU runs, against
// long-double references on lengths that cover the vector bodies and their tails. The generic
// kernel checks (kernel_checks_test.cpp) use five elements, shorter than an AVX-512 vector; they
// also run under each level (tests/stdlib/CMakeLists.txt, PVI_SIMD).
#include "stdlib/kernels/simd/simd_loops.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using pvi::kern::SimdLoops;
using LD = long double;

std::vector<const SimdLoops*> levelsRunningHere() {
  int count = 0;
  const SimdLoops* const* levels = pvi::kern::simdLevels(&count);
  std::vector<const SimdLoops*> out;
  for (int k = 0; k < count; ++k)
    if (pvi::kern::simdRunsHere(*levels[k])) out.push_back(levels[k]);
  return out;
}

const std::vector<int64_t> kLengths = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 67, 1000};

// log p and d/dalpha of bernoulli_logit(y | a) in long double.
LD bernoulliLogitRef(int64_t y, LD a, LD* d) {
  const LD s = y == 1 ? a : -a;
  const LD e = std::exp(-std::fabs(a));
  *d = (y == 1 ? 1 : -1) * (s >= 0 ? e / (1 + e) : 1 / (1 + e));
  return std::min(s, LD(0)) - std::log1p(e);
}

TEST(SimdLoops, TheBaselineIsBuiltAndTheChosenLevelRunsHere) {
  int count = 0;
  const SimdLoops* const* levels = pvi::kern::simdLevels(&count);
  ASSERT_GE(count, 1);
  EXPECT_STREQ(levels[0]->level, "baseline");
  EXPECT_TRUE(pvi::kern::simdRunsHere(*levels[0]));
  const SimdLoops& chosen = pvi::kern::simdLoops();
  EXPECT_TRUE(pvi::kern::simdRunsHere(chosen)) << chosen.level;
  const char* wanted = std::getenv("PVI_SIMD");
  bool wantedRuns = false;
  for (const SimdLoops* l : levelsRunningHere()) wantedRuns |= wanted != nullptr && std::strcmp(l->level, wanted) == 0;
  if (wanted != nullptr && *wanted != '\0' && !wantedRuns) {
    // The kernel checks of this run are not at the level asked for (tests/stdlib/CMakeLists.txt
    // reports the whole run as skipped on this line).
    std::printf("PVI_SIMD=%s is not available on this CPU\n", wanted);
    GTEST_SKIP();
  }
  if (wantedRuns)
    EXPECT_STREQ(chosen.level, wanted);
  else  // the widest level this CPU runs
    EXPECT_STREQ(chosen.level, levelsRunningHere().back()->level);
}

TEST(SimdLoops, BernoulliLogitMatchesLongDouble) {
  for (const SimdLoops* L : levelsRunningHere())
    for (int64_t n : kLengths) {
      std::mt19937_64 g(static_cast<uint64_t>(n) + 1);
      std::uniform_real_distribution<double> u(-45.0, 45.0);
      std::vector<int64_t> y(n);
      std::vector<double> a(n), grad(n), start(n);
      for (int64_t i = 0; i < n; ++i) {
        y[i] = static_cast<int64_t>(g() & 1);
        a[i] = i % 11 == 3 ? 800.0 * (y[i] ? 1 : -1) : u(g);  // some far tails: exp underflows
        start[i] = u(g);
      }
      const double adj = 1.75;
      LD want = 0, mag = 0;
      std::vector<LD> gwant(n);
      for (int64_t i = 0; i < n; ++i) {
        LD d;
        const LD t = bernoulliLogitRef(y[i], a[i], &d);
        want += t;
        mag += std::fabs(t);
        gwant[i] = start[i] + adj * d;
      }
      grad = start;
      const double got = L->bernoulliLogit(adj, n, y.data(), a.data(), grad.data());
      const double value = L->bernoulliLogit(0.0, n, y.data(), a.data(), nullptr);
      const std::string where = std::string(L->level) + " n = " + std::to_string(n);
      EXPECT_LE(std::fabs(got - static_cast<double>(want)), 1e-14 * static_cast<double>(mag) + 1e-300) << where;
      EXPECT_EQ(got, value) << where << ": with and without the gradient";
      for (int64_t i = 0; i < n; ++i)
        EXPECT_LE(std::fabs(grad[i] - static_cast<double>(gwant[i])), 4e-16 * (std::fabs(start[i]) + adj))
            << where << " i = " << i;
    }
}

TEST(SimdLoops, BernoulliLogitRefusesNonFiniteAlphaAndYOutsideZeroOne) {
  const int64_t n = 37;
  for (const SimdLoops* L : levelsRunningHere())
    for (int64_t at : {int64_t{0}, int64_t{9}, int64_t{36}})
      for (int bad = 0; bad < 5; ++bad) {
        std::vector<int64_t> y(n, 1);
        std::vector<double> a(n, 0.5), grad(n, 2.0);
        if (bad == 0) a[at] = NAN;
        if (bad == 1) a[at] = INFINITY;
        if (bad == 2) a[at] = -INFINITY;
        if (bad == 3) y[at] = 2;
        if (bad == 4) y[at] = -1;
        const std::string where = std::string(L->level) + " case " + std::to_string(bad) + " at " + std::to_string(at);
        EXPECT_EQ(L->bernoulliLogit(1.0, n, y.data(), a.data(), grad.data()), -INFINITY) << where;
        EXPECT_EQ(L->bernoulliLogit(1.0, n, y.data(), a.data(), nullptr), -INFINITY) << where;
        for (double x : grad) ASSERT_EQ(x, 2.0) << where << ": the gradient was touched";
      }
}

// |got - want| within 1e-15 * n of the sum of the terms' magnitudes.
void expectSumClose(double got, LD want, LD mag, int64_t n, const std::string& where) {
  EXPECT_LE(std::fabs(got - static_cast<double>(want)),
            1e-15 * static_cast<double>(n + 1) * static_cast<double>(mag) + 1e-300)
      << where;
}

TEST(SimdLoops, MatvecItsTransposeAndDotMatchLongDouble) {
  for (const SimdLoops* L : levelsRunningHere())
    for (int64_t r : {0, 1, 5, 8, 17, 67, 1100})  // 1100: more than one chunk of rows
      for (int64_t c : {0, 1, 3, 4, 6, 9}) {
        std::mt19937_64 g(static_cast<uint64_t>(r * 100 + c));
        std::normal_distribution<double> nd;
        std::vector<double> A(r * c), x(c), go(r), out(r, 99.0), gx(c);
        for (double& v : A) v = nd(g);
        for (double& v : x) v = nd(g);
        for (double& v : go) v = nd(g);
        for (double& v : gx) v = nd(g);
        const std::vector<double> gx0 = gx;
        L->matvec(r, c, A.data(), x.data(), out.data());
        L->matvecTransposeAdd(r, c, A.data(), go.data(), gx.data());
        const std::string where = std::string(L->level) + " " + std::to_string(r) + " x " + std::to_string(c);
        for (int64_t i = 0; i < r; ++i) {
          LD want = 0, mag = 0;
          for (int64_t j = 0; j < c; ++j) {
            want += LD(A[i + j * r]) * x[j];
            mag += std::fabs(LD(A[i + j * r]) * x[j]);
          }
          expectSumClose(out[i], want, mag, c, where + " A x, row " + std::to_string(i));
        }
        for (int64_t j = 0; j < c; ++j) {
          LD want = gx0[j], mag = std::fabs(gx0[j]);
          for (int64_t i = 0; i < r; ++i) {
            want += LD(A[i + j * r]) * go[i];
            mag += std::fabs(LD(A[i + j * r]) * go[i]);
          }
          expectSumClose(gx[j], want, mag, r, where + " A^T g, column " + std::to_string(j));
          LD d = 0, dmag = 0;
          for (int64_t i = 0; i < r; ++i) {
            d += LD(A[i + j * r]) * go[i];
            dmag += std::fabs(LD(A[i + j * r]) * go[i]);
          }
          expectSumClose(L->dot(r, A.data() + j * r, go.data()), d, dmag, r,
                         where + " dot, column " + std::to_string(j));
        }
      }
}

TEST(SimdLoops, ElementwiseGradientsAccumulate) {
  for (const SimdLoops* L : levelsRunningHere())
    for (int64_t n : kLengths)
      for (int64_t sa : {0, 1})
        for (int64_t sb : {0, 1}) {
          std::mt19937_64 g(static_cast<uint64_t>(n * 4 + sa * 2 + sb));
          std::normal_distribution<double> nd;
          std::vector<double> a(std::max<int64_t>(n, 1)), b(a.size()), u(n), grad(a.size());
          for (double& v : a) v = nd(g);
          for (double& v : b) v = nd(g);
          for (double& v : u) v = nd(g);
          for (double& v : grad) v = nd(g);
          const std::string where = std::string(L->level) + " n = " + std::to_string(n) + " strides " +
                                    std::to_string(sa) + " " + std::to_string(sb);
          // g[i sa] += sign u[i] b[i sb], or sign u[i] without b.
          for (bool withB : {false, true})
            for (double sign : {1.0, -1.0}) {
              std::vector<double> got = grad;
              L->accumulate(n, got.data(), sa, sign, u.data(), withB ? b.data() : nullptr, sb);
              std::vector<LD> want(grad.begin(), grad.end()), mag(grad.size());
              for (std::size_t k = 0; k < grad.size(); ++k) mag[k] = std::fabs(grad[k]);
              for (int64_t i = 0; i < n; ++i) {
                const LD t = sign * LD(u[i]) * (withB ? LD(b[i * sb]) : LD(1));
                want[i * sa] += t;
                mag[i * sa] += std::fabs(t);
              }
              for (std::size_t k = 0; k < grad.size(); ++k)
                expectSumClose(got[k], want[k], mag[k], sa == 0 ? n : 1,
                               where + (withB ? " accumulate u b" : " accumulate u") + " k = " + std::to_string(k));
            }
        }
}

}  // namespace

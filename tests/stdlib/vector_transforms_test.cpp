// The constrained-vector transforms (stdlib/kernels/arith/vector_transforms.cpp): each maps into
// its set (a simplex, an increasing vector, a positive increasing vector), its inverse returns
// the unconstrained point, its log-Jacobian is log|det J| of the map computed by central finite
// differences (for a simplex, of the map to its first K - 1 elements, the density's coordinates),
// its gradient kernel matches finite differences of sum(g_out * x) + g_lj * log|J|, arrays of
// vectors are handled vector by vector, and the inverses refuse points outside the set.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "stdlib/kernels/arith/arith.h"
#include "transform_checks.hpp"

namespace {

using Forward = double (*)(int64_t, const double*, const double*, int64_t, double*);
using Backward = void (*)(int64_t, const double*, const double*, int64_t, const double*, const double*, double,
                          double*, double*);
using Inverse = int64_t (*)(int64_t, const double*, const double*, int64_t, double*);

struct TransformCase {
  const char* name;
  Forward forward;
  Backward backward;
  Inverse inverse;
  bool simplex;  // k - 1 unconstrained values per vector of k
};

const TransformCase kTransforms[] = {
    {"simplex", pvi_tf_simplex, pvi_tf_simplex_grad, pvi_tf_simplex_inv, true},
    {"ordered", pvi_tf_ordered, pvi_tf_ordered_grad, pvi_tf_ordered_inv, false},
    {"positive_ordered", pvi_tf_positive_ordered, pvi_tf_positive_ordered_grad, pvi_tf_positive_ordered_inv, false},
};

class VectorTransform : public ::testing::TestWithParam<TransformCase> {
 protected:
  int64_t inputs(int64_t k, int64_t vectors) const { return vectors * (GetParam().simplex ? k - 1 : k); }
  std::vector<double> apply(const std::vector<double>& u, int64_t k, int64_t vectors, double* lj = nullptr) const {
    std::vector<double> x(static_cast<size_t>(k * vectors));
    const double kk = static_cast<double>(k);
    const double l = GetParam().forward(k * vectors, u.data(), &kk, 0, x.data());
    if (lj) *lj = l;
    return x;
  }
};

TEST_P(VectorTransform, MapsIntoItsSetAndInvertsExactly) {
  std::mt19937_64 rng(4);
  for (int64_t k : {1, 2, 3, 7, 70, 150}) {  // 70 and 150: more breaks than one chunk of the simplex's reverse pass
    if (!GetParam().simplex && k == 1) continue;
    const int64_t vectors = 3;
    const std::vector<double> u = pvi::test::normalValues(static_cast<size_t>(inputs(k, vectors)), rng, 1.5);
    const std::vector<double> x = apply(u, k, vectors);
    for (int64_t v = 0; v < vectors; ++v) {
      const double* xv = x.data() + v * k;
      if (GetParam().simplex) {
        double total = 0;
        for (int64_t i = 0; i < k; ++i) {
          EXPECT_GT(xv[i], 0.0);
          total += xv[i];
        }
        EXPECT_NEAR(total, 1.0, 1e-14 * static_cast<double>(k));
      } else {
        for (int64_t i = 1; i < k; ++i) EXPECT_GT(xv[i], xv[i - 1]);
        if (std::string(GetParam().name) == "positive_ordered") {
          EXPECT_GT(xv[0], 0.0);
        }
      }
    }
    std::vector<double> back(u.size());
    const double kk = static_cast<double>(k);
    ASSERT_EQ(GetParam().inverse(static_cast<int64_t>(u.size()), x.data(), &kk, 0, back.data()), 0) << k;
    for (size_t i = 0; i < u.size(); ++i) EXPECT_NEAR(back[i], u[i], 1e-9 * (1 + std::fabs(u[i]))) << k << " " << i;
  }
}

TEST_P(VectorTransform, LogJacobianIsTheLogDeterminant) {
  std::mt19937_64 rng(8);
  for (int64_t k : {2, 3, 5}) {
    const int64_t m = inputs(k, 1);  // coordinates of the density: x's first m elements
    pvi::test::expectLogJacobianIsLogDeterminant(
        [&](const std::vector<double>& u, double* lj) { return apply(u, k, 1, lj); },
        [m](const std::vector<double>& x) { return std::vector<double>(x.begin(), x.begin() + m); },
        pvi::test::normalValues(static_cast<size_t>(m), rng, 1.0), "k " + std::to_string(k));
  }
}

TEST_P(VectorTransform, GradientMatchesFiniteDifferences) {
  std::mt19937_64 rng(15);
  for (int64_t k : {1, 2, 4, 70}) {
    if (!GetParam().simplex && k == 1) continue;
    const int64_t vectors = 2;
    const std::vector<double> u = pvi::test::normalValues(static_cast<size_t>(inputs(k, vectors)), rng, 1.0);
    const std::vector<double> gOut = pvi::test::normalValues(static_cast<size_t>(k * vectors), rng, 1.0);
    const double gLj = 0.7;
    const std::vector<double> x = apply(u, k, vectors);
    std::vector<double> g(u.size(), 0.0);
    const double kk = static_cast<double>(k);
    GetParam().backward(k * vectors, u.data(), &kk, 0, x.data(), gOut.data(), gLj, g.data(), nullptr);
    pvi::test::expectGradientMatchesFiniteDifferences(
        [&](const std::vector<double>& p, double* lj) { return apply(p, k, vectors, lj); }, u, gOut, gLj, g,
        "k " + std::to_string(k));
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, VectorTransform, ::testing::ValuesIn(kTransforms),
                         [](const ::testing::TestParamInfo<TransformCase>& i) { return std::string(i.param.name); });

TEST(VectorTransformInverse, RefusesPointsOutsideTheSet) {
  double u[4];
  const double three = 3.0;
  const double notSummingToOne[] = {0.2, 0.3, 0.4};
  EXPECT_EQ(pvi_tf_simplex_inv(2, notSummingToOne, &three, 0, u), 1);
  const double negative[] = {0.6, -0.1, 0.5};
  EXPECT_EQ(pvi_tf_simplex_inv(2, negative, &three, 0, u), 2);
  const double notIncreasing[] = {0.1, 0.5, 0.5};
  EXPECT_EQ(pvi_tf_ordered_inv(3, notIncreasing, &three, 0, u), 3);
  const double nan[] = {0.1, std::nan(""), 0.5};
  EXPECT_EQ(pvi_tf_ordered_inv(3, nan, &three, 0, u), 2);
  const double notPositive[] = {0.0, 0.5, 0.7};
  EXPECT_EQ(pvi_tf_positive_ordered_inv(3, notPositive, &three, 0, u), 1);
  // Elements that sum to 1 only within the tolerance still give finite coordinates.
  const double nearlyOne[] = {0.5, 0.5 + 5e-9, 1e-9};
  ASSERT_EQ(pvi_tf_simplex_inv(2, nearlyOne, &three, 0, u), 0);
  EXPECT_TRUE(std::isfinite(u[0]) && std::isfinite(u[1]));
  // The second vector of an array: its first element's index in the flat array.
  const double second[] = {0.2, 0.3, 0.5, 0.5, 0.6, 0.1};
  EXPECT_EQ(pvi_tf_simplex_inv(4, second, &three, 0, u), 4);
}

}  // namespace

// Stan's offset and multiplier (stdlib/kernels/arith/transforms.cpp): x = o + m u with a
// per-element offset and a scalar multiplier (stride 0); log|J| is the log-determinant, the
// gradient (to u, o and m) matches finite differences, the inverse recovers u, and a multiplier
// that is not positive gives log|J| = -inf and is refused by the inverse.
TEST(AffineTransform, LogJacobianGradientInverseAndDomain) {
  std::mt19937_64 rng(21);
  const std::vector<double> offsets{0.5, -1.0, 2.0};
  // The coordinates: u (3), then the offsets (3), then the multiplier.
  auto map = [&](const std::vector<double>& p, double* lj) {
    std::vector<double> x(3);
    const double l = pvi_tf_affine(3, p.data(), p.data() + 3, 1, p.data() + 6, 0, x.data());
    if (lj) *lj = l;
    return x;
  };
  std::vector<double> p = pvi::test::normalValues(7, rng, 1.0);
  p[6] = 1.7;
  double lj = 0;
  const std::vector<double> x = map(p, &lj);
  EXPECT_NEAR(lj, 3 * std::log(1.7), 1e-15);
  // log|J| over u alone, with the offsets and the multiplier held fixed.
  const pvi::test::TransformMap overU = [&](const std::vector<double>& u, double* l) {
    std::vector<double> q = p;
    std::copy(u.begin(), u.end(), q.begin());
    return map(q, l);
  };
  pvi::test::expectLogJacobianIsLogDeterminant(overU, [](const std::vector<double>& v) { return v; },
                                               {p[0], p[1], p[2]}, "affine");
  // Gradient to every coordinate: the objective's u part is sum(g_out * x) + g_lj * log|J|.
  const std::vector<double> gOut = pvi::test::normalValues(3, rng, 1.0);
  std::vector<double> g(7, 0.0);
  pvi_tf_affine_grad(3, p.data(), p.data() + 3, 1, p.data() + 6, 0, x.data(), gOut.data(), 0.7, g.data(), g.data() + 3,
                     g.data() + 6);
  pvi::test::expectGradientMatchesFiniteDifferences(map, p, gOut, 0.7, g, "affine");
  std::vector<double> back(3);
  ASSERT_EQ(pvi_tf_affine_inv(3, x.data(), p.data() + 3, 1, p.data() + 6, 0, back.data()), 0);
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(back[i], p[i], 1e-14) << i;
  for (double m : {0.0, -2.0}) {
    std::vector<double> out(3);
    EXPECT_EQ(pvi_tf_affine(3, p.data(), offsets.data(), 1, &m, 0, out.data()), -HUGE_VAL) << m;
    EXPECT_EQ(pvi_tf_affine_inv(3, x.data(), offsets.data(), 1, &m, 0, back.data()), 1) << m;
  }
}

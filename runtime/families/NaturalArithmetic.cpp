#include "runtime/families/NaturalArithmetic.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pvi {
namespace {

template <class N>
void requireSameShape(const N& a, const N& b, const char* op) {
  if (a.eta1.size() != b.eta1.size() || a.eta2.rows() != b.eta2.rows() || a.eta2.cols() != b.eta2.cols())
    throw std::invalid_argument(std::string("natural parameters of different dimensions in ") + op + " (" +
                                std::to_string(a.eta1.size()) + " and " + std::to_string(b.eta1.size()) + ")");
}

}  // namespace

FullNatural operator+(const FullNatural& a, const FullNatural& b) {
  requireSameShape(a, b, "+");
  return {a.eta1 + b.eta1, a.eta2 + b.eta2};
}
FullNatural operator-(const FullNatural& a, const FullNatural& b) {
  requireSameShape(a, b, "-");
  return {a.eta1 - b.eta1, a.eta2 - b.eta2};
}
FullNatural operator-(const FullNatural& a) { return {-a.eta1, -a.eta2}; }
FullNatural operator*(double s, const FullNatural& a) { return {s * a.eta1, s * a.eta2}; }
FullNatural operator*(const FullNatural& a, double s) { return s * a; }
FullNatural& operator+=(FullNatural& a, const FullNatural& b) {
  requireSameShape(a, b, "+=");
  a.eta1 += b.eta1;
  a.eta2 += b.eta2;
  return a;
}
FullNatural& operator-=(FullNatural& a, const FullNatural& b) {
  requireSameShape(a, b, "-=");
  a.eta1 -= b.eta1;
  a.eta2 -= b.eta2;
  return a;
}

MeanFieldNatural operator+(const MeanFieldNatural& a, const MeanFieldNatural& b) {
  requireSameShape(a, b, "+");
  return {a.eta1 + b.eta1, a.eta2 + b.eta2};
}
MeanFieldNatural operator-(const MeanFieldNatural& a, const MeanFieldNatural& b) {
  requireSameShape(a, b, "-");
  return {a.eta1 - b.eta1, a.eta2 - b.eta2};
}
MeanFieldNatural operator-(const MeanFieldNatural& a) { return {-a.eta1, -a.eta2}; }
MeanFieldNatural operator*(double s, const MeanFieldNatural& a) { return {s * a.eta1, s * a.eta2}; }
MeanFieldNatural operator*(const MeanFieldNatural& a, double s) { return s * a; }
MeanFieldNatural& operator+=(MeanFieldNatural& a, const MeanFieldNatural& b) {
  requireSameShape(a, b, "+=");
  a.eta1 += b.eta1;
  a.eta2 += b.eta2;
  return a;
}
MeanFieldNatural& operator-=(MeanFieldNatural& a, const MeanFieldNatural& b) {
  requireSameShape(a, b, "-=");
  a.eta1 -= b.eta1;
  a.eta2 -= b.eta2;
  return a;
}

double maxAbsDifference(const FullNatural& a, const FullNatural& b) {
  requireSameShape(a, b, "maxAbsDifference");
  if (a.dim() == 0) return 0.0;
  return std::max((a.eta1 - b.eta1).cwiseAbs().maxCoeff(), (a.eta2 - b.eta2).cwiseAbs().maxCoeff());
}
double maxAbsDifference(const MeanFieldNatural& a, const MeanFieldNatural& b) {
  requireSameShape(a, b, "maxAbsDifference");
  if (a.dim() == 0) return 0.0;
  return std::max((a.eta1 - b.eta1).cwiseAbs().maxCoeff(), (a.eta2 - b.eta2).cwiseAbs().maxCoeff());
}

double inner(const FullNatural& eta, const FullMean& mu) {
  if (eta.eta1.size() != mu.m.size() || eta.eta2.rows() != mu.second.rows() || eta.eta2.cols() != mu.second.cols())
    throw std::invalid_argument("inner: natural and mean parameters of different dimensions");
  return eta.eta1.dot(mu.m) + eta.eta2.cwiseProduct(mu.second).sum();
}
double inner(const MeanFieldNatural& eta, const MeanFieldMean& mu) {
  if (eta.eta1.size() != mu.m.size() || eta.eta2.size() != mu.second.size())
    throw std::invalid_argument("inner: natural and mean parameters of different dimensions");
  return eta.eta1.dot(mu.m) + eta.eta2.dot(mu.second);
}

}  // namespace pvi

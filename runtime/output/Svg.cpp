#include "runtime/output/Svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace pvi::output {

std::string xmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

double niceStep(double span, int target) {
  const double raw = span / std::max(1, target);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / magnitude;
  const double nice = fraction < 1.5 ? 1.0 : fraction < 3.0 ? 2.0 : fraction < 7.0 ? 5.0 : 10.0;
  return nice * magnitude;
}

std::string fmt(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", x);
  return buf;
}

std::string tickText(double v, double step) {
  if (std::fabs(v) < step * 1e-9) v = 0.0;  // not "-1.2e-17"
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// A range with positive width around finite [lo, hi].
std::pair<double, double> usableRange(double lo, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0.0, 1.0};
  if (hi - lo <= 1e-12 * std::max(1.0, std::fabs(lo))) {
    const double d = lo == 0.0 ? 1.0 : 0.1 * std::fabs(lo);
    return {lo - d, hi + d};
  }
  return {lo, hi};
}

// Maps data coordinates to the plotting area of a 640 x 400 canvas.
struct Frame {
  static constexpr double kWidth = 640, kHeight = 400, kLeft = 80, kRight = 20, kTop = 40, kBottom = 55;
  double x0, x1, y0, y1;
  double px(double x) const { return kLeft + (x - x0) / (x1 - x0) * (kWidth - kLeft - kRight); }
  double py(double y) const { return kHeight - kBottom - (y - y0) / (y1 - y0) * (kHeight - kTop - kBottom); }
};

void openDocument(std::string& s, const std::string& title) {
  s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"400\" viewBox=\"0 0 640 400\" "
       "font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<rect x=\"0\" y=\"0\" width=\"640\" height=\"400\" fill=\"white\"/>\n";
  s += "<text class=\"title\" x=\"320\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" + xmlEscape(title) +
       "</text>\n";
}

// Axes, ticks, grid lines and axis labels.
void drawAxes(std::string& s, const Frame& f, const std::string& xLabel, const std::string& yLabel) {
  const double left = Frame::kLeft, right = Frame::kWidth - Frame::kRight;
  const double top = Frame::kTop, bottom = Frame::kHeight - Frame::kBottom;
  s += "<g class=\"axes\" stroke=\"black\" stroke-width=\"1\">\n";
  s += "<line x1=\"" + fmt(left) + "\" y1=\"" + fmt(bottom) + "\" x2=\"" + fmt(right) + "\" y2=\"" + fmt(bottom) + "\"/>\n";
  s += "<line x1=\"" + fmt(left) + "\" y1=\"" + fmt(top) + "\" x2=\"" + fmt(left) + "\" y2=\"" + fmt(bottom) + "\"/>\n";
  s += "</g>\n";
  const double xStep = niceStep(f.x1 - f.x0, 6);
  for (double t : niceTicks(f.x0, f.x1, 6)) {
    const std::string x = fmt(f.px(t));
    s += "<line class=\"grid\" x1=\"" + x + "\" y1=\"" + fmt(top) + "\" x2=\"" + x + "\" y2=\"" + fmt(bottom) +
         "\" stroke=\"#e0e0e0\"/>\n";
    s += "<line class=\"tick\" x1=\"" + x + "\" y1=\"" + fmt(bottom) + "\" x2=\"" + x + "\" y2=\"" + fmt(bottom + 5) +
         "\" stroke=\"black\"/>\n";
    s += "<text class=\"tick-label\" x=\"" + x + "\" y=\"" + fmt(bottom + 18) + "\" text-anchor=\"middle\">" +
         tickText(t, xStep) + "</text>\n";
  }
  const double yStep = niceStep(f.y1 - f.y0, 5);
  for (double t : niceTicks(f.y0, f.y1, 5)) {
    const std::string y = fmt(f.py(t));
    s += "<line class=\"grid\" x1=\"" + fmt(left) + "\" y1=\"" + y + "\" x2=\"" + fmt(right) + "\" y2=\"" + y +
         "\" stroke=\"#e0e0e0\"/>\n";
    s += "<line class=\"tick\" x1=\"" + fmt(left - 5) + "\" y1=\"" + y + "\" x2=\"" + fmt(left) + "\" y2=\"" + y +
         "\" stroke=\"black\"/>\n";
    s += "<text class=\"tick-label\" x=\"" + fmt(left - 8) + "\" y=\"" + fmt(f.py(t) + 4) + "\" text-anchor=\"end\">" +
         tickText(t, yStep) + "</text>\n";
  }
  s += "<text class=\"x-label\" x=\"" + fmt((left + right) / 2) + "\" y=\"" + fmt(Frame::kHeight - 12) +
       "\" text-anchor=\"middle\">" + xmlEscape(xLabel) + "</text>\n";
  const std::string cy = fmt((top + bottom) / 2);
  s += "<text class=\"y-label\" x=\"18\" y=\"" + cy + "\" text-anchor=\"middle\" transform=\"rotate(-90 18 " + cy +
       ")\">" + xmlEscape(yLabel) + "</text>\n";
}

void note(std::string& s, const std::string& text) {
  s += "<text class=\"note\" x=\"320\" y=\"200\" text-anchor=\"middle\" fill=\"#808080\">" + xmlEscape(text) +
       "</text>\n";
}

}  // namespace

std::vector<double> niceTicks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!std::isfinite(lo) || !std::isfinite(hi) || hi <= lo) return ticks;
  const double step = niceStep(hi - lo, target);
  // For steps below one, k * nice / 10^d is the double nearest the decimal (-0.3, not
  // -0.30000000000000004).
  const double divisor = step < 1.0 ? std::round(std::pow(10.0, std::ceil(-std::log10(step)))) : 1.0;
  const double scaled = std::round(step * divisor);  // nice * 10^k times 10^d: an integer
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k += 1.0) {
    ticks.push_back(k * scaled / divisor);
  }
  return ticks;
}

std::string renderLineChart(const LineChart& c) {
  const std::size_t n = std::min(c.x.size(), c.y.size());
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(c.x[i]) || !std::isfinite(c.y[i])) continue;
    xlo = std::min(xlo, c.x[i]);
    xhi = std::max(xhi, c.x[i]);
    ylo = std::min(ylo, c.y[i]);
    yhi = std::max(yhi, c.y[i]);
  }
  auto [x0, x1] = usableRange(xlo, xhi);
  auto [y0, y1] = usableRange(ylo, yhi);
  const double pad = 0.05 * (y1 - y0);
  const Frame f{x0, x1, y0 - pad, y1 + pad};

  std::string s;
  openDocument(s, c.title);
  drawAxes(s, f, c.xLabel, c.yLabel);
  std::string points;
  std::string markers;
  const auto flush = [&] {
    if (!points.empty()) s += "<polyline class=\"series\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"" + points + "\"/>\n";
    points.clear();
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(c.x[i]) || !std::isfinite(c.y[i])) {
      flush();
      continue;
    }
    const std::string px = fmt(f.px(c.x[i])), py = fmt(f.py(c.y[i]));
    points += (points.empty() ? "" : " ") + px + "," + py;
    markers += "<circle class=\"point\" cx=\"" + px + "\" cy=\"" + py + "\" r=\"2.5\" fill=\"#1f77b4\"/>\n";
  }
  flush();
  s += markers;
  if (markers.empty()) note(s, "no finite values");
  s += "</svg>\n";
  return s;
}

std::string renderMarginalChart(const MarginalChart& c) {
  std::vector<double> x;
  for (double v : c.draws) {
    if (std::isfinite(v)) x.push_back(v);
  }
  const bool gaussian = c.gaussianMean && c.gaussianSd && std::isfinite(*c.gaussianMean) &&
                        std::isfinite(*c.gaussianSd) && *c.gaussianSd > 0;
  double lo = INFINITY, hi = -INFINITY;
  for (double v : x) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const auto [binLo, binHi] = usableRange(lo, hi);
  double xlo = x.empty() ? INFINITY : binLo, xhi = x.empty() ? -INFINITY : binHi;
  if (gaussian) {
    xlo = std::min(xlo, *c.gaussianMean - 4 * *c.gaussianSd);
    xhi = std::max(xhi, *c.gaussianMean + 4 * *c.gaussianSd);
  }
  const auto [x0, x1] = usableRange(xlo, xhi);

  const int bins = c.bins > 0 ? c.bins : std::clamp(static_cast<int>(std::lround(std::sqrt(static_cast<double>(x.size())))), 10, 50);
  const double width = (binHi - binLo) / bins;
  std::vector<double> height(static_cast<std::size_t>(bins), 0.0);
  for (double v : x) {
    const auto b = std::min(static_cast<std::size_t>((v - binLo) / width), height.size() - 1);  // max falls in the last bin
    height[b] += 1.0;
  }
  double ymax = 0.0;
  for (double& h : height) {
    h /= static_cast<double>(std::max<std::size_t>(x.size(), 1)) * width;  // density scale
    ymax = std::max(ymax, h);
  }
  const auto density = [&](double v) {
    const double z = (v - *c.gaussianMean) / *c.gaussianSd;
    return std::exp(-0.5 * z * z) / (*c.gaussianSd * std::sqrt(2 * std::numbers::pi));
  };
  if (gaussian) ymax = std::max(ymax, density(*c.gaussianMean));
  if (ymax <= 0) ymax = 1.0;
  const Frame f{x0, x1, 0.0, 1.05 * ymax};

  std::string s;
  openDocument(s, c.title);
  drawAxes(s, f, c.xLabel, "density");
  if (!x.empty()) {
    for (std::size_t b = 0; b < height.size(); ++b) {
      const double left = f.px(binLo + static_cast<double>(b) * width);
      const double right = f.px(binLo + static_cast<double>(b + 1) * width);
      const double top = f.py(height[b]);
      s += "<rect class=\"bar\" x=\"" + fmt(left) + "\" y=\"" + fmt(top) + "\" width=\"" + fmt(right - left) +
           "\" height=\"" + fmt(f.py(0.0) - top) + "\" fill=\"#aec7e8\" stroke=\"#1f77b4\" stroke-width=\"0.5\"/>\n";
    }
  }
  if (gaussian) {
    std::string d;
    constexpr int kPoints = 200;
    for (int i = 0; i <= kPoints; ++i) {
      const double v = x0 + (x1 - x0) * i / kPoints;
      d += (i == 0 ? "M" : " L") + fmt(f.px(v)) + "," + fmt(f.py(density(v)));
    }
    s += "<path class=\"density\" d=\"" + d + "\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.5\"/>\n";
  }
  if (x.empty() && !gaussian) note(s, "no finite draws");
  s += "</svg>\n";
  return s;
}

}  // namespace pvi::output

// Embedding pvic: compile the bundled hierarchical logistic regression, bind its data (shared
// JSON, per-district CSV), check the gradient against central differences (exit code 1 when they
// disagree), fit, and print the posterior means.
//
//   embed_example <examples directory>
#include <pvi/pvi.hpp>

#include <cmath>
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s EXAMPLES_DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = std::string(argv[1]) + "/hierarchical_logistic/";
  try {
    pvi::Model model = pvi::Model::fromFile(dir + "model.pvi");
    pvi::DataSources data;
    data.sharedJson = dir + "data.json";
    data.partitionCsv = dir + "data_per_district.csv";
    pvi::BoundModel bound = model.bind(data);
    std::printf("%zu global dimensions, %zu districts\n", bound.dimZ(), bound.numPartitions());

    // The log density's gradient (locals at 0) against central differences, every coordinate, at
    // z = 0 and at a point off the axes, with step h = 1e-5. A central difference is off by its
    // truncation error h^2/6 |f'''| plus a rounding error of about eps |f| / h. The third
    // derivative of log(1 + e^t) is at most 1/(6 sqrt 3) < 0.1 and the largest covariate is age
    // (sum |age|^3 = 2.0e6 over the 1,934 women), so |f'''| <= 2e5 and the truncation error is at
    // most 3.3e-6; rounding is about 2.2e-16 * 1.5e3 / 1e-5 = 3e-8. The tolerance 1e-4 + 1e-6 |g|
    // leaves a margin of 30 over both, while a wrong or missing term of the gradient is off by far
    // more (the entries of the gradient here are of order 1 to 10^4).
    const Eigen::Index dim = static_cast<Eigen::Index>(bound.dimZ());
    Eigen::VectorXd offAxes(dim);
    for (Eigen::Index i = 0; i < dim; ++i) offAxes[i] = 0.1 * static_cast<double>(i + 1) * (i % 2 == 0 ? 1 : -1);
    int disagreements = 0;
    for (const Eigen::VectorXd& z : {Eigen::VectorXd(Eigen::VectorXd::Zero(dim)), offAxes}) {
      Eigen::VectorXd grad;
      const double lp = bound.logDensity(z, {}, {}, &grad);
      for (Eigen::Index i = 0; i < dim; ++i) {
        constexpr double h = 1e-5;
        Eigen::VectorXd zh = z;
        zh[i] = z[i] + h;
        const double up = bound.logDensity(zh);
        zh[i] = z[i] - h;
        const double down = bound.logDensity(zh);
        const double fd = (up - down) / (2 * h);
        const double tol = 1e-4 + 1e-6 * std::abs(grad[i]);
        const bool ok = std::abs(grad[i] - fd) <= tol;  // false for NaN too
        if (!ok) ++disagreements;
        std::printf("log density %.6f; d/dz%td = %.6f (central difference %.6f, |diff| %.1e, tol %.1e)%s\n", lp,
                    i + 1, grad[i], fd, std::abs(grad[i] - fd), tol, ok ? "" : " DISAGREE");
      }
    }
    if (disagreements > 0) {
      std::fprintf(stderr, "embed_example: %d gradient entries disagree with central differences\n", disagreements);
      return 1;
    }

    pvi::FitOptions options;
    options.rounds = 10;
    pvi::Posterior posterior = bound.fit(options);
    const Eigen::VectorXd mean = posterior.constrainedMean();
    const std::vector<std::string> names = bound.parameterNames();
    for (std::size_t i = 0; i < names.size(); ++i) std::printf("%-10s %9.4f\n", names[i].c_str(), mean[static_cast<Eigen::Index>(i)]);
    std::printf("ELBO %.2f after %zu rounds\n", posterior.result().elbo.value, posterior.result().rounds);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "embed_example: %s\n", e.what());
    return 1;
  }
}

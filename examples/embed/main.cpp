// Embedding pvic: compile the bundled hierarchical logistic regression, bind its data (shared
// JSON, per-district CSV), check a gradient, fit, and print the posterior means.
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

    // The log density and its gradient at z = 0 (locals at 0), checked by a central difference.
    Eigen::VectorXd z = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(bound.dimZ())), grad;
    const double lp = bound.logDensity(z, {}, {}, &grad);
    Eigen::VectorXd zh = z;
    zh[0] += 1e-6;
    const double up = bound.logDensity(zh);
    zh[0] -= 2e-6;
    const double down = bound.logDensity(zh);
    std::printf("log density at 0: %.6f; d/dz1 = %.6f (central difference %.6f)\n", lp, grad[0],
                (up - down) / 2e-6);

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

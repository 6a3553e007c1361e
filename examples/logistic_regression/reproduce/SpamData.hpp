#pragma once
// The spambase files of examples/logistic_regression: the shared data (data.json, CmdStan JSON:
// D, prior_sd, N_test, X_test as an array of rows, y_test) and the 3680 training rows of
// data_per_client.csv (columns client, y, X.1..X.D). A small reader for exactly these files; it
// throws std::runtime_error naming the file and line on anything unexpected.
#include <Eigen/Core>
#include <filesystem>
#include <vector>

namespace spam {

struct SpamData {
  int D = 0;
  double priorSd = 0.0;
  Eigen::MatrixXd Xtest;    // N_test x D
  Eigen::VectorXd ytest;    // 0 / 1
  Eigen::MatrixXd Xtrain;   // 3680 x D, file order
  Eigen::VectorXd ytrain;   // 0 / 1
  std::vector<int> client;  // the file's client column (1..10): split A
};

// `dir` holds data.json and data_per_client.csv.
SpamData loadSpamData(const std::filesystem::path& dir);

}  // namespace spam

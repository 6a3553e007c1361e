#include "CompiledSpamModel.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace spam {
namespace {

std::vector<double> columnMajor(const Eigen::MatrixXd& m) { return {m.data(), m.data() + m.size()}; }

std::vector<int64_t> labels(const Eigen::VectorXd& y) {
  std::vector<int64_t> out;
  for (Eigen::Index i = 0; i < y.size(); ++i) out.push_back(static_cast<int64_t>(y(i)));
  return out;
}

}  // namespace

std::unique_ptr<JitProgram> compileProgram(const std::filesystem::path& modelFile) {
  std::ifstream in(modelFile);
  if (!in) throw std::runtime_error("cannot open " + modelFile.string());
  std::stringstream text;
  text << in.rdbuf();
  auto p = std::make_unique<JitProgram>();
  p->front = pvi::runFrontend(modelFile.string(), text.str());
  if (p->front.ok()) p->lowered = pvi::lowerModel(*p->front.checked, *p->front.diags);
  if (!p->lowered) throw std::runtime_error("cannot compile " + modelFile.string() + ":\n" + p->front.diags->brief());
  p->jit = pvi::JitModel::compile(*p->lowered);
  return p;
}

pvi::CompiledModel bindSpamData(const JitProgram& program, const SpamData& data, const Split& split) {
  pvi::DataBlock shared;
  shared.addInt(data.D).addReal(data.priorSd).addInt(data.Xtest.rows()).addReals(columnMajor(data.Xtest)).addInts(
      labels(data.ytest));
  std::vector<pvi::DataBlock> partitions;
  for (const auto& rows : split) {
    Eigen::MatrixXd X(static_cast<Eigen::Index>(rows.size()), data.D);
    Eigen::VectorXd y(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      X.row(i) = data.Xtrain.row(static_cast<Eigen::Index>(rows[static_cast<size_t>(i)]));
      y(i) = data.ytrain(static_cast<Eigen::Index>(rows[static_cast<size_t>(i)]));
    }
    pvi::DataBlock part;
    part.addInt(X.rows()).addReals(columnMajor(X)).addInts(labels(y));
    partitions.push_back(std::move(part));
  }
  return pvi::CompiledModel(program.jit->code(), program.lowered->schema, std::move(shared), std::move(partitions));
}

}  // namespace spam

#include "CompiledSpamModel.hpp"

#include <stdexcept>

#include "compiler/driver/ModelFile.hpp"
#include "runtime/model/GaussianPriorProbe.hpp"

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
  pvi::ModelFileText read = pvi::readModelFile(modelFile.string());
  if (!read.text) throw std::runtime_error(read.error);
  auto p = std::make_unique<JitProgram>();
  p->source = pvi::lowerSource(modelFile.string(), std::move(*read.text));
  if (!p->source->model)
    throw std::runtime_error("cannot compile " + modelFile.string() + ":\n" + p->source->front.diags->brief());
  p->jit = pvi::JitModel::compile(*p->source->model);
  return p;
}

pvi::GaussianPrior probedPrior(const pvi::FactorModel& model) {
  pvi::PriorProbeResult probe = pvi::probeGaussianPrior(model, {});
  if (!probe.prior) throw std::runtime_error("the compiled prior is not exactly Gaussian: " + probe.reason);
  return std::move(*probe.prior);
}

pvi::CompiledModel bindSpamData(const JitProgram& program, const SpamData& data, const Split& split) {
  pvi::DataBlock shared;
  shared.addInt(data.D)
      .addReal(data.priorSd)
      .addInt(data.Xtest.rows())
      .addReals(columnMajor(data.Xtest))
      .addInts(labels(data.ytest));
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
  return pvi::CompiledModel(program.jit->code(), program.source->model->schema, std::move(shared),
                            std::move(partitions));
}

}  // namespace spam

#include <sstream>

#include "compiler/codegen/Jit.hpp"
#include "compiler/driver/LowerSource.hpp"
#include "compiler/driver/ModelFile.hpp"
#include "pvi/pvi.hpp"

namespace pvi {

struct Model::Impl {
  std::unique_ptr<JitModel> jit;
  ModelInfo info;
};

Model Model::fromString(const std::string& source, const std::string& name) {
  std::unique_ptr<LoweredSource> l = lowerSource(name + ".pvi", source);
  if (!l->model) {
    std::ostringstream diags;
    l->front.diags->render(diags, false);
    throw CompileError("the model '" + name + "' does not compile:\n" + diags.str());
  }
  l->model->info.name = name;
  auto impl = std::make_shared<Impl>();
  impl->jit = JitModel::compile(*l->model);
  impl->info = l->model->info;
  return Model(std::move(impl));
}

Model Model::fromFile(const std::string& path) {
  ModelFileText read = readModelFile(path);
  if (!read.text) throw std::runtime_error(read.error);
  return fromString(*read.text, modelName(path));
}

const ModelInfo& Model::info() const { return impl_->info; }

BoundModel Model::bind(const DataSources& files) const { return bindLoaded(loadData(impl_->info.data, files)); }

BoundModel Model::bind(const DataTexts& texts) const { return bindLoaded(loadDataTexts(impl_->info.data, texts)); }

BoundModel Model::bindLoaded(BoundData d) const {
  BoundModel b;
  b.code_ = impl_;
  b.model_ = std::make_shared<CompiledModel>(impl_->jit->code(), impl_->info, std::move(d.shared),
                                             std::move(d.partitions), d.labels, d.locator());
  return b;
}

namespace {

// The named values of one block in the schema's declaration order; DataError for a missing or
// unknown name.
DataBlock blockFrom(const NamedData& named, const std::vector<DataField>& fields, const std::string& where) {
  for (const auto& [name, value] : named.values()) {
    bool known = false;
    for (const DataField& f : fields) known = known || f.name == name;
    if (!known) throw DataError(where + ": '" + name + "' is not a variable of this block");
  }
  DataBlock block;
  for (const DataField& f : fields) {
    const NamedData::Value* v = nullptr;
    for (const auto& [name, value] : named.values())
      if (name == f.name) v = &value;
    if (v == nullptr) throw DataError(where + ": '" + f.name + "' (" + f.type + ") is missing");
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, int64_t>) {
            if (f.isInt) block.addInt(x);
            else block.addReal(static_cast<double>(x));
          } else if constexpr (std::is_same_v<T, double>) {
            if (f.isInt) throw DataError(where + ": '" + f.name + "' must be an int (" + f.type + ")");
            block.addReal(x);
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            if (f.isInt) block.addInts(x);
            else block.addReals(std::vector<double>(x.begin(), x.end()));
          } else {
            if (f.isInt) throw DataError(where + ": '" + f.name + "' must be ints (" + f.type + ")");
            block.addReals(std::vector<double>(x.data(), x.data() + x.size()));
          }
        },
        *v);
  }
  return block;
}

}  // namespace

BoundModel Model::bind(const NamedData& shared, const std::vector<NamedData>& partitions,
                       std::vector<std::string> labels) const {
  const DataSchema& s = impl_->info.data;
  std::vector<DataBlock> parts;
  for (std::size_t j = 0; j < partitions.size(); ++j)
    parts.push_back(blockFrom(partitions[j], s.partition,
                              "data per " + s.partitionName + " " + (j < labels.size() ? labels[j] : std::to_string(j + 1))));
  BoundModel b;
  b.code_ = impl_;
  b.model_ = std::make_shared<CompiledModel>(impl_->jit->code(), impl_->info, blockFrom(shared, s.shared, "data"),
                                             std::move(parts), std::move(labels));
  return b;
}

NamedData& NamedData::set(const std::string& name, Value value) {
  for (auto& [n, v] : values_)
    if (n == name) {
      v = std::move(value);
      return *this;
    }
  values_.emplace_back(name, std::move(value));
  return *this;
}

}  // namespace pvi

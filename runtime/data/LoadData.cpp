#include "runtime/data/LoadData.hpp"

#include <filesystem>
#include <map>
#include <set>

#include "runtime/data/CsvPartitions.hpp"
#include "runtime/data/JsonData.hpp"
#include "runtime/data/PartitionLabel.hpp"

namespace pvi {

static_assert(DataOrigins::kShared == kSharedBlock);

namespace {

std::string names(const std::vector<DataField>& fields) {
  std::string s;
  for (const DataField& f : fields) s += (s.empty() ? "" : ", ") + f.name;
  return s;
}

// True when the block has containers and all of them are empty.
bool noObservations(const std::vector<DataField>& fields, const DataBlock& block) {
  bool containers = false;
  for (size_t k = 0; k < fields.size(); ++k) {
    if (fields[k].rank() == 0) continue;
    containers = true;
    if (block.length(k) > 0) return false;
  }
  return containers;
}

// "data.json: ignored the key 'x', which the model does not declare (as CmdStan ignores it)".
std::string ignoredNote(const std::string& file, const std::vector<std::string>& keys) {
  constexpr std::size_t kShown = 8;  // a file of thousands of other variables gets a short note
  std::string list;
  for (std::size_t i = 0; i < keys.size() && i < kShown; ++i) list += (list.empty() ? "" : ", ") + named(keys[i]);
  if (keys.size() > kShown) list += " and " + std::to_string(keys.size() - kShown) + " more";
  const bool one = keys.size() == 1;
  return file + ": ignored the " + (one ? "key " : "keys ") + list + ", which the model does not declare (as CmdStan " +
         (one ? "ignores it)" : "ignores them)");
}

// Loads checked texts.
BoundData load(const DataSchema& schema, const DataTexts& in) {
  checkMappings(in.mappings);
  std::set<std::string> used;
  BoundData out;
  auto origins = std::make_shared<DataOrigins>();
  SizeEnvironment env;

  if (in.sharedJson) {
    JsonBlock b = readJsonBlock(*in.sharedJson, {.schema = &schema}, env, in.mappings, used);
    if (!b.ignored.empty()) out.notes.push_back(ignoredNote(in.sharedJson->name, b.ignored));
    out.shared = std::move(b.block);
    origins->shared = std::move(b.origin);
  } else if (!schema.shared.empty()) {
    throw DataInputError(DataErrorKind::Missing, {},
                         "no shared data given: the model's data { } declares " + names(schema.shared) +
                             " (give them in a CmdStan JSON file)");
  }

  bool json = !in.partitionJson.empty(), csv = in.partitionCsv.has_value();
  if (schema.partitionName.empty() && (json || csv))
    throw DataInputError(DataErrorKind::Partition, {},
                         "per-partition data were given, but the model has no partition (no @partition)");
  if (json && csv)
    throw DataInputError(DataErrorKind::Partition, {},
                         "give per-" + schema.partitionName + " data either as JSON files or as one CSV file, not both");
  if (!schema.partitionName.empty() && !json && !csv)
    throw DataInputError(DataErrorKind::Partition, {},
                         "no per-" + schema.partitionName + " data given: the model is partitioned by '" +
                             schema.partitionName + "'; give one JSON file per " + schema.partitionName +
                             " or a CSV file with a '" + schema.partitionName + "' column");
  if (!in.partitionLabels.empty() && in.partitionLabels.size() != in.partitionJson.size())
    throw DataInputError(DataErrorKind::Partition, {},
                         std::to_string(in.partitionLabels.size()) + " partition labels were given for " +
                             std::to_string(in.partitionJson.size()) + " JSON partition files");

  if (json) {
    std::map<std::string, std::string> seen;  // label -> file
    for (size_t j = 0; j < in.partitionJson.size(); ++j) {
      const SourceText& src = in.partitionJson[j];
      std::string label = in.partitionLabels.empty() ? std::filesystem::path(src.name).stem().string()
                                                     : in.partitionLabels[j];
      if (label.empty())
        throw DataInputError(DataErrorKind::Partition, {.file = src.name}, "the partition's label is empty");
      std::string problem = partitionLabelProblem(label);
      if (!problem.empty())
        throw DataInputError(DataErrorKind::Partition, {.file = src.name},
                             unusableLabel(label, problem, schema.partitionName) +
                                 (in.partitionLabels.empty() ? "; the label is the file's name without its extension"
                                                             : "; the label was given for this file"));
      auto [it, fresh] = seen.emplace(label, src.name);
      if (!fresh)
        throw DataInputError(DataErrorKind::Partition, {.file = src.name},
                             "the label " + named(label) + " is also the label of " + it->second +
                                 "; give each partition its own label");
      SizeEnvironment partEnv = env;
      JsonBlock b = readJsonBlock(src, {.schema = &schema, .partition = true, .label = label}, partEnv, in.mappings,
                                  used);
      if (!b.ignored.empty()) out.notes.push_back(ignoredNote(src.name, b.ignored));
      if (!in.options.allowEmptyPartitions && noObservations(schema.partition, b.block))
        throw DataInputError(DataErrorKind::Partition,
                             {.file = src.name, .partitionName = schema.partitionName, .partition = label},
                             "the partition is empty: every per-" + schema.partitionName +
                                 " array has no entries (remove the file, or allow empty partitions)");
      out.partitions.push_back(std::move(b.block));
      out.labels.push_back(label);
      origins->partitions.push_back(std::move(b.origin));
    }
  }
  if (csv) {
    CsvPartitions p = readCsvPartitions(*in.partitionCsv, schema,
                                        {.partitionBy = in.partitionBy,
                                         .allowSinglePartition = in.options.allowSinglePartition},
                                        env, in.mappings, used);
    out.partitions = std::move(p.blocks);
    out.labels = std::move(p.labels);
    origins->partitions = std::move(p.origins);
  }

  for (const CategoricalMapping& m : in.mappings)
    if (!used.count(m.column))
      throw DataInputError(DataErrorKind::Mapping, {},
                           "the categorical mapping of " + named(m.column) + " matches no CSV column and no JSON variable");
  out.origins = std::move(origins);
  return out;
}

}  // namespace

DataLocator BoundData::locator() const {
  std::shared_ptr<const DataOrigins> o = origins;
  if (!o) return {};
  return [o](size_t partition, size_t variable, size_t element) { return o->describe(partition, variable, element); };
}

BoundData loadDataTexts(const DataSchema& schema, const DataTexts& texts) {
  DataTexts checked = texts;
  if (checked.sharedJson) checkSourceText(*checked.sharedJson);
  for (SourceText& s : checked.partitionJson) checkSourceText(s);
  if (checked.partitionCsv) checkSourceText(*checked.partitionCsv);
  return load(schema, checked);
}

BoundData loadData(const DataSchema& schema, const DataSources& sources) {
  DataTexts texts;
  if (sources.sharedJson) texts.sharedJson = readSourceFile(*sources.sharedJson);
  for (const std::string& p : sources.partitionJson) texts.partitionJson.push_back(readSourceFile(p));
  if (sources.partitionCsv) texts.partitionCsv = readSourceFile(*sources.partitionCsv);
  texts.partitionLabels = sources.partitionLabels;
  texts.partitionBy = sources.partitionBy;
  texts.mappings = sources.mappings;
  texts.options = sources.options;
  return load(schema, texts);
}

}  // namespace pvi

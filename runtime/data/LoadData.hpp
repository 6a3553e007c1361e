#pragma once
// Loading a model's data: the shared block from CmdStan JSON, and per-partition data from one
// CmdStan JSON file per partition or from one CSV file with a partition column. Everything is
// validated before it is bound (docs/data.md lists the formats and every error); the result
// goes straight into CompiledModel:
//
//   pvi::BoundData d = pvi::loadData(info.data, sources);
//   pvi::CompiledModel model(code, info, d.shared, d.partitions, d.labels, d.locator());
//
// CompiledModel then checks bounds (and, once more, the counts); its messages name the file,
// CSV line and column through the locator.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/data/CategoricalMapping.hpp"
#include "runtime/data/DataInputError.hpp"
#include "runtime/data/DataOrigins.hpp"
#include "runtime/data/SourceText.hpp"
#include "runtime/model/CompiledModel.hpp"
#include "runtime/model/DataBlock.hpp"
#include "runtime/model/DataSchema.hpp"

namespace pvi {

struct DataOptions {
  // A CSV partition column with one distinct value is an error unless this is set (it usually
  // means the wrong column; PVI over one partition is plain VI).
  bool allowSinglePartition = false;
  // A JSON partition whose per-partition containers are all empty (N = 0) is an error unless
  // this is set.
  bool allowEmptyPartitions = false;
};

// Data given as files.
struct DataSources {
  std::optional<std::string> sharedJson;     // `data { }`; required when the model declares any
  std::vector<std::string> partitionJson;    // one file per partition, in this order ...
  std::vector<std::string> partitionLabels;  // ... labelled so (default: each file's stem)
  std::optional<std::string> partitionCsv;   // or one CSV file (not both)
  std::string partitionBy;                   // its partition column (default: the model's partition name)
  std::vector<CategoricalMapping> mappings;  // categorical CSV columns / JSON variables
  DataOptions options;
};

// The same, as texts (the embedding API binds data from strings). A SourceText's name appears in
// messages; JSON partitions without labels are labelled by the stem of their name.
struct DataTexts {
  std::optional<SourceText> sharedJson;
  std::vector<SourceText> partitionJson;
  std::vector<std::string> partitionLabels;
  std::optional<SourceText> partitionCsv;
  std::string partitionBy;
  std::vector<CategoricalMapping> mappings;
  DataOptions options;
};

struct BoundData {
  DataBlock shared;
  std::vector<DataBlock> partitions;
  std::vector<std::string> labels;  // one per partition, as written in the files (or given)
  std::shared_ptr<const DataOrigins> origins;
  // What the caller should tell the user: JSON keys the model does not declare, which were
  // ignored (as CmdStan ignores them), one line per file.
  std::vector<std::string> notes;

  // For CompiledModel: names the file, line, column and element of a value it refuses.
  DataLocator locator() const;
};

// Throw DataInputError (a DataError) on any problem; nothing is bound partially. A JSON key that
// no data block declares is ignored with a note; one that the other block declares (a shared
// variable in a partition's file, or the reverse) is an error.
BoundData loadData(const DataSchema& schema, const DataSources& sources);
BoundData loadDataTexts(const DataSchema& schema, const DataTexts& texts);

}  // namespace pvi

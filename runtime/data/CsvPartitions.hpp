#pragma once
// Per-partition data from one CSV file with a partition column (`partitionBy`, by default the
// model's partition name, e.g. `client`). Each row is one observation of one partition:
//
// - Partitions are the distinct values of the partition column, in order of first appearance
//   in the file; a partition's rows are its rows in file order (they need not be contiguous).
//   Labels are kept as written (without surrounding blanks), as strings.
// - A per-partition variable whose first size depends on a per-partition int (`vector[N] y`,
//   `matrix[N, D] X`, `array[N] int y`) is row-indexed: row n of the partition holds its n-th
//   entry. A 1-D one is the column named after it (`y`); a matrix takes one column per matrix
//   column, `X.1`, ..., `X.D` (Stan CSV style: `X.j` holds X[n, j]); deeper shapes use one
//   index per remaining dimension (`A.j.k`).
// - Any other per-partition variable (a scalar such as six_cities' `C`, or a container whose
//   sizes do not depend on per-partition data, `w.1`, `w.2`, ...) is constant within a
//   partition: its columns must hold the same value on every row of the partition.
// - A per-partition int scalar without a column that is the first size of a row-indexed
//   variable (`N` in `vector[N] y`) is the partition's row count.
// - Every other column must belong to a declared per-partition variable.
#include <set>
#include <string>
#include <vector>

#include "runtime/data/CategoricalMapping.hpp"
#include "runtime/data/DataOrigins.hpp"
#include "runtime/data/SizeExpression.hpp"
#include "runtime/data/SourceText.hpp"
#include "runtime/model/DataBlock.hpp"
#include "runtime/model/DataSchema.hpp"

namespace pvi {

struct CsvPartitionOptions {
  std::string partitionBy;            // the partition column; empty: the model's partition name
  bool allowSinglePartition = false;  // otherwise one distinct label is an error
};

struct CsvPartitions {
  std::vector<std::string> labels;
  std::vector<DataBlock> blocks;
  std::vector<BlockOrigin> origins;
};

// Reads a checked text (checkSourceText). `shared` holds the shared block's ints, for sizes
// such as D in matrix[N, D]. Mappings apply to the columns they name; the names of those used
// are added to `usedMappings`. Throws DataInputError (Syntax, Partition, Unexpected, Missing,
// Shape, Type, Value, Mapping), naming the line, the column, the variable and the partition.
CsvPartitions readCsvPartitions(const SourceText& source, const DataSchema& schema, const CsvPartitionOptions& options,
                                const SizeEnvironment& shared, const std::vector<CategoricalMapping>& mappings,
                                std::set<std::string>& usedMappings);

}  // namespace pvi

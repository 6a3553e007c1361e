#include "runtime/app/BindData.hpp"

#include <filesystem>
#include <iostream>

#include "runtime/data/LoadData.hpp"

namespace pvi::app {

namespace {

bool hasExtension(const std::string& path, const char* ext) {
  std::string e = std::filesystem::path(path).extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e == ext;
}

}  // namespace

BoundModel bindData(const LoadedModel& m, const DataCli& d, std::uint64_t seed) {
  DataSources s;
  BoundModel out;
  if (!d.data.empty()) {
    s.sharedJson = d.data;
    out.dataFiles.push_back(d.data);
  }
  const bool csv = d.partitionData.size() == 1 && hasExtension(d.partitionData[0], ".csv");
  if (csv) {
    s.partitionCsv = d.partitionData[0];
    s.partitionBy = d.partitionBy;
  } else {
    for (const std::string& f : d.partitionData)
      if (hasExtension(f, ".csv"))
        throw std::invalid_argument("--partition-data: give either one CSV file or JSON files, not both ('" + f + "')");
    if (!d.partitionBy.empty())
      throw std::invalid_argument("--partition-by needs a CSV file in --partition-data");
    s.partitionJson = d.partitionData;
    s.partitionLabels = d.partitionLabels;
  }
  if (csv && !d.partitionLabels.empty())
    throw std::invalid_argument("--partition-label applies to JSON partition files; a CSV file's labels are its "
                                "partition column's values");
  for (const std::string& f : d.partitionData) out.dataFiles.push_back(f);
  for (const std::string& spec : d.maps) s.mappings.push_back(parseCategoricalMapping(spec));
  s.options.allowSinglePartition = d.allowSinglePartition;
  BoundData bound = loadData(m.info.data, s);
  out.notes = bound.notes;
  out.model = std::make_unique<CompiledModel>(m.code, m.info, std::move(bound.shared), std::move(bound.partitions),
                                              bound.labels, bound.locator(), seed);
  return out;
}

void printNotes(const std::string& program, const BoundModel& bound) {
  for (const std::string& n : bound.notes) std::cerr << program << ": note: " << n << "\n";
}

int bindErrorExitCode(const std::exception& e) {
  const auto* d = dynamic_cast<const DataInputError*>(&e);
  return d != nullptr && d->kind() == DataErrorKind::File ? kExitUsage : kExitInvalid;
}

}  // namespace pvi::app

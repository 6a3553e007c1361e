#include "runtime/data/CsvPartitions.hpp"

#include <algorithm>
#include <map>

#include "runtime/data/Csv.hpp"
#include "runtime/data/DataInputError.hpp"
#include "runtime/model/VariableLayout.hpp"
#include "runtime/data/DeclaredShape.hpp"
#include "runtime/data/NumberText.hpp"
#include "runtime/data/PartitionLabel.hpp"

namespace pvi {

namespace {

// Names already formatted for messages (named(), quoted()), or input names, which are clipped.
std::string joinNames(const std::vector<std::string>& names, size_t max = 12, bool clip = false) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < max; ++i) s += (i ? ", " : "") + (clip ? clipped(names[i]) : names[i]);
  if (names.size() > max) s += ", ... (" + std::to_string(names.size()) + " in all)";
  return s;
}

// "2.1" -> {2, 1}; nullopt unless every part is a positive decimal integer without leading zeros.
std::optional<std::vector<int64_t>> parseIndices(std::string_view suffix) {
  std::vector<int64_t> out;
  for (;;) {
    size_t dot = suffix.find('.');
    std::string_view part = suffix.substr(0, dot);
    IntParse p = parseIntText(part);
    if (part.empty() || part.front() < '1' || part.front() > '9' || p.status != NumberStatus::Ok) return std::nullopt;
    out.push_back(p.value);
    if (dot == std::string_view::npos) return out;
    suffix = suffix.substr(dot + 1);
  }
}

// "X.2.1" for the 1-based indices {2, 1}.
std::string columnName(const std::string& name, const std::vector<int64_t>& index) {
  std::string s = name;
  for (int64_t i : index) s += "." + std::to_string(i);
  return s;
}

// How one per-partition variable is read.
struct FieldPlan {
  const DataField* field = nullptr;
  bool rowIndexed = false;
  bool inferred = false;           // an int scalar without a column: the partition's row count
  size_t arity = 0;                // indices after the name in its column names
  std::vector<int64_t> extents;    // per index, from the columns
  std::vector<size_t> columns;     // table columns, column-major in their indices
  std::vector<std::string> names;  // their names
};

struct Cell {
  int64_t i = 0;
  double d = 0;
  bool operator==(const Cell& o) const { return i == o.i && d == o.d; }
};

class Reader {
 public:
  Reader(const SourceText& src, const DataSchema& schema, const CsvPartitionOptions& options,
         const SizeEnvironment& shared, const std::vector<CategoricalMapping>& mappings, std::set<std::string>& used)
      : src_(src), schema_(schema), options_(options), shared_(shared), mappings_(mappings), used_(used) {}

  CsvPartitions run() {
    table_ = parseCsv(src_);
    readHeader();
    groupRows();
    planFields();
    CsvPartitions out;
    for (size_t p = 0; p < groups_.size(); ++p) {
      out.labels.push_back(labels_[p]);
      BlockOrigin origin;
      out.blocks.push_back(partition(p, origin));
      out.origins.push_back(std::move(origin));
    }
    return out;
  }

 private:
  DataLocation at(size_t line = 0) const { return {.file = src_.name, .line = line}; }

  void readHeader() {
    std::map<std::string, size_t> seen;
    for (size_t c = 0; c < table_.header.size(); ++c) {
      std::string name(trimBlanks(table_.header[c]));
      if (name.empty())
        throw DataInputError(DataErrorKind::Syntax, at(table_.headerLine),
                             "column " + std::to_string(c + 1) + " of the header has no name");
      auto [it, fresh] = seen.emplace(name, c);
      if (!fresh)
        throw DataInputError(DataErrorKind::Syntax, at(table_.headerLine),
                             "the header names column " + named(name) + " twice (columns " + std::to_string(it->second + 1) +
                                 " and " + std::to_string(c + 1) + ")");
      header_.push_back(name);
    }
    partitionBy_ = options_.partitionBy.empty() ? schema_.partitionName : options_.partitionBy;
    auto pc = seen.find(partitionBy_);
    if (pc == seen.end())
      throw DataInputError(DataErrorKind::Partition, at(table_.headerLine),
                           "no partition column " + named(partitionBy_) + "; the columns are " + joinNames(header_, 12, true));
    partitionColumn_ = pc->second;
    for (const CategoricalMapping& m : mappings_) {
      auto it = seen.find(m.column);
      if (it == seen.end()) continue;  // maybe a JSON variable; unused mappings are reported by the caller
      if (it->second == partitionColumn_)
        throw DataInputError(DataErrorKind::Mapping, at(table_.headerLine),
                             "the partition column " + named(partitionBy_) +
                                 " needs no categorical mapping: partition labels are kept as strings");
      used_.insert(m.column);
      columnMapping_[it->second] = &m;
    }
  }

  void groupRows() {
    if (table_.rows.empty())
      throw DataInputError(DataErrorKind::Partition, at(table_.headerLine), "the CSV file has a header but no rows");
    std::map<std::string, size_t> index;
    for (size_t r = 0; r < table_.rows.size(); ++r) {
      std::string label(trimBlanks(table_.rows[r][partitionColumn_]));
      if (label.empty())
        throw DataInputError(DataErrorKind::Partition, {.file = src_.name, .line = table_.lines[r], .field = partitionBy_},
                             "the partition label is empty");
      auto [it, fresh] = index.emplace(label, groups_.size());
      if (fresh) {
        std::string problem = partitionLabelProblem(label);
        if (!problem.empty())
          throw DataInputError(DataErrorKind::Partition,
                               {.file = src_.name, .line = table_.lines[r], .field = partitionBy_},
                               unusableLabel(label, problem, schema_.partitionName));
        groups_.emplace_back();
        labels_.push_back(label);
      }
      groups_[it->second].push_back(r);
    }
    if (groups_.size() == 1 && !options_.allowSinglePartition)
      throw DataInputError(DataErrorKind::Partition, at(table_.headerLine),
                           "the partition column " + named(partitionBy_) + " has a single value " + quoted(labels_[0]) +
                               " on all " + std::to_string(table_.rows.size()) +
                               " rows: partitioned inference needs at least two partitions (is " + named(partitionBy_) +
                               " the right column? to fit one partition anyway, allow a single partition)");
  }

  void planFields() {
    const std::vector<DataField>& fields = schema_.partition;
    std::set<std::string> ints;  // per-partition int scalars: the names that make a size per-partition
    for (const DataField& f : fields)
      if (f.isInt && f.isScalar) ints.insert(f.name);
    plans_.resize(fields.size());
    for (size_t k = 0; k < fields.size(); ++k) {
      FieldPlan& p = plans_[k];
      p.field = &fields[k];
      if (fields[k].rank() > 0) {
        for (const std::string& n : sizeNames(declaredDims(fields[k])[0])) p.rowIndexed = p.rowIndexed || ints.count(n);
      }
      p.arity = fields[k].rank() - (p.rowIndexed ? 1 : 0);
    }

    // Assign the columns to variables.
    std::map<std::string, size_t> byName;
    for (size_t k = 0; k < fields.size(); ++k) byName[fields[k].name] = k;
    std::vector<std::string> extra;
    std::string hint;
    std::vector<std::map<std::vector<int64_t>, size_t>> found(fields.size());
    for (size_t c = 0; c < header_.size(); ++c) {
      if (c == partitionColumn_) continue;
      const std::string& name = header_[c];
      size_t dot = name.find('.');
      std::string base = name.substr(0, dot);
      auto it = byName.find(base);
      if (it == byName.end()) {
        extra.push_back(name);
        for (const DataField& s : schema_.shared)
          if (s.name == base && hint.empty())
            hint = "; '" + base + "' is declared in data { }, so it belongs in the shared data (JSON)";
        continue;
      }
      std::vector<int64_t> index;
      if (dot != std::string::npos) {
        std::optional<std::vector<int64_t>> parsed = parseIndices(std::string_view(name).substr(dot + 1));
        if (!parsed)
          throw DataInputError(DataErrorKind::Unexpected,
                               {.file = src_.name, .line = table_.headerLine, .variable = base, .field = name},
                               "after '" + base + ".' a column name must have 1-based indices, such as " + base + ".3");
        index = *parsed;
      }
      FieldPlan& p = plans_[it->second];
      if (index.size() != p.arity) throw arityError(p, name);
      found[it->second][index] = c;
    }
    if (!extra.empty()) {
      std::vector<std::string> names;
      for (const std::string& e : extra) names.push_back(named(e));
      throw DataInputError(DataErrorKind::Unexpected,
                           {.file = src_.name, .line = table_.headerLine, .field = extra.front()},
                           std::string(extra.size() == 1 ? "the column " : "the columns ") + joinNames(names) + " " +
                               (extra.size() == 1 ? "is" : "are") + " not declared in data per " +
                               schema_.partitionName + hint);
    }

    // Complete sets of columns, or an inferred size.
    std::vector<std::string> missing, missingNames;
    for (size_t k = 0; k < fields.size(); ++k) {
      FieldPlan& p = plans_[k];
      const DataField& f = *p.field;
      if (found[k].empty()) {
        if (inferable(f)) {
          p.inferred = true;
          continue;
        }
        if (p.arity > 0 && anyDeclaredZero(p)) continue;  // no columns for zero columns: fine
        missing.push_back("'" + f.name + "' (" + f.type + ", " + expectedColumns(p) + ")");
        missingNames.push_back(f.name);
        continue;
      }
      p.extents.assign(p.arity, 0);
      for (const auto& [index, c] : found[k])
        for (size_t j = 0; j < p.arity; ++j) p.extents[j] = std::max(p.extents[j], index[j]);
      std::vector<int64_t> index(p.arity, 1);
      for (;;) {  // every index tuple of the box, column-major
        auto it = found[k].find(index);
        if (it == found[k].end())
          throw DataInputError(DataErrorKind::Missing,
                               {.file = src_.name, .line = table_.headerLine, .variable = f.name,
                                .field = columnName(f.name, index)},
                               "the column '" + columnName(f.name, index) + "' is missing: '" + f.name + "' (" + f.type +
                                   ") has columns up to " + columnName(f.name, p.extents) + " in this file");
        p.columns.push_back(it->second);
        p.names.push_back(header_[it->second]);
        size_t j = 0;
        for (; j < p.arity; ++j) {
          if (++index[j] <= p.extents[j]) break;
          index[j] = 1;
        }
        if (j == p.arity) break;
      }
    }
    if (!missing.empty())
      throw DataInputError(DataErrorKind::Missing,
                           {.file = src_.name, .line = table_.headerLine, .variable = missingNames.front()},
                           std::string("no column for ") + joinNames(missing) + " of data per " + schema_.partitionName +
                               "; the file's columns are " + joinNames(header_, 12, true));
  }

  // An int scalar that is the bare first size of a row-indexed variable.
  bool inferable(const DataField& f) const {
    if (!f.isInt || !f.isScalar) return false;
    for (const FieldPlan& p : plans_)
      if (p.rowIndexed && trimBlanks(declaredDims(*p.field)[0]) == f.name) return true;
    return false;
  }

  bool anyDeclaredZero(const FieldPlan& p) const {
    std::vector<std::string> dims = declaredDims(*p.field);
    for (size_t k = p.rowIndexed ? 1 : 0; k < dims.size(); ++k)
      if (evaluateSize(dims[k], shared_) == 0) return true;
    return false;
  }

  std::string expectedColumns(const FieldPlan& p) const {
    const DataField& f = *p.field;
    if (p.arity == 0) return std::string("a column '") + f.name + "'" + (p.rowIndexed ? " with one value per row" : "");
    std::string example = columnName(f.name, std::vector<int64_t>(p.arity, 1));
    return "columns " + example + ", " + columnName(f.name, [&] {
             std::vector<int64_t> second(p.arity, 1);
             second[0] = 2;
             return second;
           }()) + ", ...";
  }

  DataInputError arityError(const FieldPlan& p, const std::string& column) const {
    const DataField& f = *p.field;
    std::string how = p.arity == 0 ? "its values are one column named '" + f.name + "'"
                                   : "its values are in columns " + expectedColumns(p).substr(8) + " (" +
                                         std::to_string(p.arity) + (p.arity == 1 ? " index" : " indices") +
                                         " after the name" + (p.rowIndexed ? ", the row is the first index" : "") + ")";
    return DataInputError(DataErrorKind::Shape,
                          {.file = src_.name, .line = table_.headerLine, .variable = f.name, .field = column},
                          "the column " + named(column) + " does not fit '" + f.name + "' (" + f.type + "): " + how);
  }

  // Parses the cell of table column c in row r as a value of f.
  Cell cell(const FieldPlan& p, size_t c, size_t r, size_t part) const {
    const DataField& f = *p.field;
    const std::string& text = table_.rows[r][c];
    // Built only for messages: this runs for every cell.
    auto where = [&] {
      return DataLocation{.file = src_.name, .line = table_.lines[r], .partitionName = schema_.partitionName,
                          .partition = labels_[part], .variable = f.name, .field = header_[c]};
    };
    auto mapped = columnMapping_.find(c);
    if (mapped != columnMapping_.end()) {
      std::optional<int64_t> v = mapped->second->find(text);
      if (!v) {
        std::vector<std::string> labels;
        for (const auto& [l, n] : mapped->second->values) labels.push_back(quoted(l));
        throw DataInputError(DataErrorKind::Mapping, where(),
                             "the value " + quoted(text) + " is not in the categorical mapping of column " +
                                 named(header_[c]) + " (which maps " + joinNames(labels) + ")");
      }
      return {*v, static_cast<double>(*v)};
    }
    const std::string_view t = trimBlanks(text);
    if (t.empty() || t == "NA")
      throw DataInputError(DataErrorKind::Value, where(),
                           (t.empty() ? std::string("empty value") : "missing value " + quoted(text)) +
                               ": the model's data cannot have missing values (remove or impute them first)");
    if (f.isInt) {
      IntParse v = parseIntText(t);
      if (v.status == NumberStatus::Ok) return {v.value, static_cast<double>(v.value)};
      if (v.status == NumberStatus::OutOfRange)
        throw DataInputError(DataErrorKind::Value, where(), "the value " + quoted(text) + " is out of the int range");
      if (v.status == NumberStatus::NotAnInt)
        throw DataInputError(DataErrorKind::Type, where(),
                             "'" + f.name + "' is an int (" + f.type + "), but the value is " + quoted(text) +
                                 " (ints are written without a decimal point or exponent)");
      throw notANumber(where(), c, text);
    }
    RealParse v = parseRealText(t);
    if (v.status == NumberStatus::OutOfRange)
      throw DataInputError(DataErrorKind::Value, where(), "the value " + quoted(text) + " is out of the range of a double");
    if (v.status != NumberStatus::Ok) throw notANumber(where(), c, text);
    if (v.value != v.value)
      throw DataInputError(DataErrorKind::Value, where(),
                           "the value is NaN: the model's data cannot hold NaN (remove or impute missing values first)");
    return {0, v.value};
  }

  DataInputError notANumber(const DataLocation& where, size_t c, const std::string& text) const {
    // Suggest a mapping over the column's labels (its non-numeric values, sorted).
    std::set<std::string> labels;
    for (const auto& row : table_.rows) {
      std::string t(trimBlanks(row[c]));
      if (!t.empty() && t != "NA" && parseRealText(t).status == NumberStatus::NotANumber) labels.insert(t);
      if (labels.size() > 8) break;
    }
    // An example only when it can be shown whole: labels without commas, short and printable.
    bool usable = std::all_of(labels.begin(), labels.end(), [](const std::string& l) {
      return l.find(',') == std::string::npos && clipped(l) == l;
    });
    std::string hint = usable ? ", e.g. --map " + suggestMapping(header_[c], {labels.begin(), labels.end()}) : "";
    return DataInputError(DataErrorKind::Type, where,
                          "the value " + quoted(text) + " is not a number; if column " + named(header_[c]) +
                              " holds categories, give it an explicit categorical mapping to integers" + hint);
  }

  DataBlock partition(size_t part, BlockOrigin& origin) {
    const std::vector<size_t>& rows = groups_[part];
    const std::string& label = labels_[part];
    int64_t n = static_cast<int64_t>(rows.size());
    size_t first = table_.lines[rows[0]];
    SizeEnvironment env = shared_;
    std::vector<std::vector<int64_t>> ints(plans_.size());
    std::vector<std::vector<double>> reals(plans_.size());
    std::vector<std::vector<int64_t>> dims(plans_.size());

    // Values of column c, which must be the same on every row of the partition.
    auto constant = [&](const FieldPlan& p, size_t c) {
      Cell v = cell(p, c, rows[0], part);
      for (size_t i = 1; i < rows.size(); ++i) {
        const size_t r = rows[i];
        Cell w = cell(p, c, r, part);
        if (!(w == v))
          throw DataInputError(
              DataErrorKind::Value,
              {.file = src_.name, .line = table_.lines[r], .partitionName = schema_.partitionName, .partition = label,
               .variable = p.field->name, .field = header_[c]},
              "'" + p.field->name + "' (" + p.field->type + ") must be constant within " +
                  partitionPhrase(schema_.partitionName, label) + ", but this row has " + quoted(std::string(trimBlanks(table_.rows[r][c]))) +
                  " and line " + std::to_string(first) + " has " + quoted(std::string(trimBlanks(table_.rows[rows[0]][c]))));
      }
      return v;
    };
    auto store = [&](size_t k, size_t offset, const Cell& v) {
      if (plans_[k].field->isInt) ints[k][offset] = v.i;
      else reals[k][offset] = v.d;
    };

    // Scalars first: sizes of the containers may use them.
    for (size_t k = 0; k < plans_.size(); ++k) {
      const FieldPlan& p = plans_[k];
      if (p.field->rank() > 0) continue;
      Cell v = p.inferred ? Cell{n, static_cast<double>(n)} : constant(p, p.columns.at(0));
      if (p.field->isInt) {
        ints[k] = {v.i};
        env[p.field->name] = v.i;
        env.sources[p.field->name] = src_.name;
      } else {
        reals[k] = {v.d};
      }
    }
    for (size_t k = 0; k < plans_.size(); ++k) {
      const FieldPlan& p = plans_[k];
      const DataField& f = *p.field;
      if (f.rank() == 0) continue;
      DataLocation where{.file = src_.name, .line = table_.headerLine, .partitionName = schema_.partitionName,
                         .partition = label, .variable = f.name};
      std::vector<int64_t> d;
      if (p.rowIndexed) {
        DataLocation rowsAt = where;
        rowsAt.line = first;
        std::optional<int64_t> size = declaredSize(f, 0, env, rowsAt);
        if (size && *size != n) {
          std::string expr = declaredDims(f)[0];
          throw DataInputError(DataErrorKind::Shape, rowsAt,
                               partitionPhrase(schema_.partitionName, label) + " has " + std::to_string(n) +
                                   " rows, but '" + f.name + "' (" + f.type + ") needs " + expr + " = " +
                                   std::to_string(*size) + " rows" + sizeSources(expr, env, src_.name));
        }
        d.push_back(n);
      }
      std::vector<int64_t> extents = p.extents;
      if (p.columns.empty())  // no columns: a zero size (anyDeclaredZero); take the declared sizes
        for (size_t j = 0; j < p.arity; ++j)
          extents.push_back(declaredSize(f, d.size() + j, env, where).value_or(0));
      for (size_t j = 0; j < p.arity; ++j) {
        if (!p.columns.empty()) {
          // "'X' has 4 columns (X.1, ..., X.4)": the count of columns in this file.
          checkDimension(f, d.size() + j, extents[j], env, where);
        }
      }
      d.insert(d.end(), extents.begin(), extents.end());
      size_t total = 1;
      for (int64_t x : d) total *= static_cast<size_t>(x);
      if (f.isInt) ints[k].assign(total, 0);
      else reals[k].assign(total, 0.0);
      // Column j holds the index tuple j (column-major over the extents) of the non-row dims;
      // values go where generated code expects them (flatOffset).
      const size_t arrayRank = f.arrayDims.size();
      for (size_t j = 0; j < p.columns.size(); ++j) {
        size_t c = p.columns[j];
        std::vector<int64_t> index = flatIndex(j, extents, 0);
        if (p.rowIndexed) {
          index.insert(index.begin(), 0);
          for (size_t i = 0; i < rows.size(); ++i) {
            index[0] = static_cast<int64_t>(i);
            store(k, flatOffset(index, d, arrayRank), cell(p, c, rows[i], part));
          }
        } else {
          store(k, flatOffset(index, d, arrayRank), constant(p, c));
        }
      }
      dims[k] = std::move(d);
    }

    DataBlock block;
    std::vector<size_t> lines;
    for (size_t r : rows) lines.push_back(table_.lines[r]);
    for (size_t k = 0; k < plans_.size(); ++k) {
      const FieldPlan& p = plans_[k];
      if (p.field->isInt) block.addInts(std::move(ints[k]));
      else block.addReals(std::move(reals[k]));
      VariableOrigin o{.name = p.field->name, .file = src_.name, .dims = dims[k], .arrayRank = p.field->arrayDims.size()};
      if (!p.inferred) {
        o.rowLines = p.rowIndexed ? lines : std::vector<size_t>{first};
        o.columns = p.names;
        o.rowIndexed = p.rowIndexed;
      } else {
        o.note = "the row count of " + partitionPhrase(schema_.partitionName, label);
      }
      origin.variables.push_back(std::move(o));
    }
    return block;
  }

  const SourceText& src_;
  const DataSchema& schema_;
  const CsvPartitionOptions& options_;
  const SizeEnvironment& shared_;
  const std::vector<CategoricalMapping>& mappings_;
  std::set<std::string>& used_;

  CsvTable table_;
  std::vector<std::string> header_;  // trimmed names
  std::string partitionBy_;
  size_t partitionColumn_ = 0;
  std::map<size_t, const CategoricalMapping*> columnMapping_;
  std::vector<std::vector<size_t>> groups_;  // row indices of each partition
  std::vector<std::string> labels_;
  std::vector<FieldPlan> plans_;
};

}  // namespace

CsvPartitions readCsvPartitions(const SourceText& source, const DataSchema& schema, const CsvPartitionOptions& options,
                                const SizeEnvironment& shared, const std::vector<CategoricalMapping>& mappings,
                                std::set<std::string>& usedMappings) {
  return Reader(source, schema, options, shared, mappings, usedMappings).run();
}

}  // namespace pvi

#include "runtime/data/JsonData.hpp"

#include <limits>
#include <nlohmann/json.hpp>

#include "runtime/data/DeclaredShape.hpp"
#include "runtime/data/NumberText.hpp"
#include "runtime/model/VariableLayout.hpp"
#include "runtime/support/ClosestName.hpp"

namespace pvi {

namespace {

using nlohmann::json;

std::string blockName(const DataSchema& schema, bool partition) {
  return partition ? "data per " + schema.partitionName : "data";
}

// "a string", "an object", ... for messages.
std::string typeWord(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string " + quoted(v.get<std::string>());
    case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case json::value_t::binary: return "binary data";
    case json::value_t::discarded: return "nothing";
    default: return "the number " + v.dump();
  }
}

// "X[2, 3]" for the 0-based index prefix {1, 2}.
std::string path(const std::string& name, const std::vector<int64_t>& index, size_t depth) {
  if (depth == 0) return "'" + name + "'";
  std::string s = name + "[";
  for (size_t k = 0; k < depth; ++k) s += (k ? ", " : "") + std::to_string(index[k] + 1);
  return s + "]";
}

// nlohmann's parse errors end with "; last read: '<token>'", and the token may be a whole 1 MiB
// string: it is clipped like any input echoed in a message.
std::string clipLastRead(const std::string& detail) {
  const std::string mark = "last read: '";
  size_t at = detail.find(mark);
  if (at == std::string::npos) return detail;
  // The token ends at the last "'" before "; expected ..." (which holds quotes of its own).
  size_t begin = at + mark.size(), expected = detail.rfind("'; expected ");
  size_t end = expected != std::string::npos && expected >= begin ? expected : detail.rfind('\'');
  if (end == std::string::npos || end < begin) return detail;
  return detail.substr(0, at) + "last read: " + named(std::string_view(detail).substr(begin, end - begin)) +
         detail.substr(end + 1);
}

json parse(const SourceText& src) {
  std::set<std::string> keys;
  std::string duplicate;
  // Where the parser is, for errors that nlohmann reports without a position (a number out of the
  // double range): the open containers, the current key of each object, the index of the element
  // being read in each array.
  struct Open {
    bool array = false;
    size_t index = 0;
    std::string key;
  };
  std::vector<Open> open;
  json::parser_callback_t onEvent = [&](int depth, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: open.push_back({}); break;
      case json::parse_event_t::array_start: open.push_back({.array = true}); break;
      case json::parse_event_t::key:
        // Top-level keys arrive at depth 1; nlohmann keeps the last of repeated keys silently.
        if (depth == 1 && !keys.insert(parsed.get<std::string>()).second && duplicate.empty())
          duplicate = parsed.get<std::string>();
        if (!open.empty()) open.back().key = parsed.get<std::string>();
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!open.empty()) open.pop_back();
        [[fallthrough]];
      case json::parse_event_t::value:
        if (!open.empty() && open.back().array) ++open.back().index;
        break;
    }
    return true;
  };
  json root;
  try {
    root = json::parse(src.text, onEvent);
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
    size_t colon = what.find(": ");
    std::string detail = clipLastRead(colon == std::string::npos ? what : what.substr(colon + 2));
    LineColumn lc = lineColumnAt(src.text, e.byte > 0 ? e.byte - 1 : 0);
    throw DataInputError(DataErrorKind::Syntax, {.file = src.name, .line = lc.line, .column = lc.column},
                         "malformed JSON: " + detail);
  } catch (const json::exception& e) {  // "[json.exception.out_of_range.406] number overflow parsing '1e999'"
    std::string what = e.what();
    size_t bracket = what.find("] ");
    std::string detail = "malformed JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2));
    // The element being read: the top-level key, then one index per array level.
    DataLocation where{.file = src.name};
    size_t q = what.find("parsing '"), r = what.rfind('\'');
    if (q != std::string::npos && r > q + 9 && (open.empty() || open[0].array))
      throw DataInputError(DataErrorKind::Syntax, where,
                           "CmdStan JSON data must be an object {\"name\": value, ...}; got " +
                               std::string(open.empty() ? "the number " + clipped(std::string_view(what).substr(q + 9, r - q - 9))
                                                        : "an array"));
    if (!open.empty() && !open[0].array && !open[0].key.empty() && q != std::string::npos && r > q + 9) {
      where.variable = open[0].key;
      std::vector<int64_t> index;
      for (size_t k = 1; k < open.size(); ++k)
        if (open[k].array) index.push_back(static_cast<int64_t>(open[k].index));
      detail = path(clipped(open[0].key), index, index.size()) + " is the number " +
               clipped(std::string_view(what).substr(q + 9, r - q - 9)) + ", out of the range of a double";
    }
    throw DataInputError(DataErrorKind::Value, where, detail);
  }
  if (!duplicate.empty())
    throw DataInputError(DataErrorKind::Syntax, {.file = src.name, .variable = duplicate},
                         "the key " + named(duplicate) + " appears more than once");
  if (!root.is_object())
    throw DataInputError(DataErrorKind::Syntax, {.file = src.name},
                         "CmdStan JSON data must be an object {\"name\": value, ...}; got " + typeWord(root));
  return root;
}

// Reads one variable's value into its flat storage, in the layout of generated code
// (flatOffset: matrices column-major, arrays row-major with each element contiguous).
class ValueReader {
 public:
  ValueReader(const DataField& field, const DataLocation& where, const CategoricalMapping* mapping)
      : f_(field), where_(where), mapping_(mapping), rank_(field.rank()) {}

  // Returns the concrete dims; fills ints_ or reals_.
  std::vector<int64_t> read(const json& value, const SizeEnvironment& env) {
    // Dims from the first entry at each level; the walk then checks that all agree.
    dims_.assign(rank_, 0);
    const json* node = &value;
    size_t known = 0;
    bool empty = false;
    for (; known < rank_ && node->is_array(); ++known) {
      dims_[known] = static_cast<int64_t>(node->size());
      if (node->empty()) {
        ++known;
        empty = true;
        break;
      }
      node = &(*node)[0];
    }
    // Too little nesting is reported before sizes: a flat array for a matrix is not "6 rows".
    if (known < rank_ && !empty) {
      std::vector<int64_t> first(rank_, 0);
      nesting(*node, first, known);
    }
    for (size_t k = 0; k < known; ++k) checkDimension(f_, k, dims_[k], env, where_);
    // Below an empty level nothing is written; take the declared sizes where they are known.
    for (size_t k = known; k < rank_; ++k) dims_[k] = declaredSize(f_, k, env, where_).value_or(0);
    size_t total = 1;
    for (int64_t d : dims_) total *= static_cast<size_t>(d);
    if (f_.isInt) ints_.assign(total, 0);
    else reals_.assign(total, 0.0);
    std::vector<int64_t> index(rank_, 0);
    walk(value, 0, index);
    return dims_;
  }

  std::vector<int64_t> ints_;
  std::vector<double> reals_;

 private:
  void walk(const json& node, size_t k, std::vector<int64_t>& index) {
    if (k == rank_) {
      if (node.is_array())
        fail(DataErrorKind::Shape, "'" + f_.name + "' (" + f_.type + ") must be " + jsonShapeWord(f_) + "; " +
                                       path(f_.name, index, k) + " is an array, one level of nesting too many");
      leaf(node, flatOffset(index, dims_, f_.arrayDims.size()), index);
      return;
    }
    if (!node.is_array()) nesting(node, index, k);
    if (static_cast<int64_t>(node.size()) != dims_[k]) {
      std::vector<int64_t> first(rank_, 0);
      fail(DataErrorKind::Shape, "ragged arrays: " + path(f_.name, index, k) + " has " + std::to_string(node.size()) +
                                     " entries, but " + path(f_.name, first, k) + " has " + std::to_string(dims_[k]));
    }
    for (size_t i = 0; i < node.size(); ++i) {
      index[k] = static_cast<int64_t>(i);
      walk(node[i], k + 1, index);
    }
  }

  // `node`, at depth k < rank, is not an array.
  [[noreturn]] void nesting(const json& node, const std::vector<int64_t>& index, size_t k) const {
    std::string what = "'" + f_.name + "' (" + f_.type + ") must be " + jsonShapeWord(f_) + "; ";
    if (k == 0) fail(DataErrorKind::Shape, what + "got " + typeWord(node));
    fail(DataErrorKind::Shape, what + path(f_.name, index, k) + " is " + typeWord(node) + ", not an array");
  }

  void leaf(const json& v, size_t offset, const std::vector<int64_t>& index) {
    // The element's name, for messages only.
    auto at = [&] { return path(f_.name, index, rank_); };
    if (v.is_string() && mapping_ != nullptr) {
      std::optional<int64_t> mapped = mapping_->find(v.get<std::string>());
      if (!mapped)
        fail(DataErrorKind::Mapping, at() + " is " + typeWord(v) + ", which the categorical mapping of '" + f_.name +
                                         "' does not list");
      store(*mapped, offset);
      return;
    }
    if (mapping_ != nullptr)
      fail(DataErrorKind::Mapping, at() + " is " + typeWord(v) + "; '" + f_.name +
                                       "' has a categorical mapping, so every value must be one of its labels");
    if (f_.isInt) {
      if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        fail(DataErrorKind::Value, at() + " = " + v.dump() + " is out of the int range");
      if (v.is_number_integer()) {
        ints_[offset] = v.get<int64_t>();
        return;
      }
      std::string hint = v.is_number_float() ? " (ints are written without a decimal point or exponent)"
                       : v.is_string() && !isSpecialRealText(v.get<std::string>())
                           ? mappingHint(v.get<std::string>())
                           : "";
      fail(DataErrorKind::Type, at() + " must be an int (" + f_.type + "); got " + typeWord(v) + hint);
    }
    if (v.is_number()) {
      reals_[offset] = v.get<double>();
      return;
    }
    if (v.is_string() && isSpecialRealText(v.get<std::string>())) {
      double x = parseRealText(v.get<std::string>()).value;
      if (x != x) fail(DataErrorKind::Value, at() + " is NaN; the model's data cannot hold NaN (missing values must be removed or imputed first)");
      reals_[offset] = x;
      return;
    }
    std::string hint = v.is_string() ? mappingHint(v.get<std::string>()) : "";
    fail(DataErrorKind::Type, at() + " must be a real number (" + f_.type + "); got " + typeWord(v) + hint);
  }

  // "; to use labels, give a categorical mapping, e.g. --map y=spam:1" (the example only when the
  // label can be shown whole).
  std::string mappingHint(const std::string& label) const {
    std::string hint = "; to use labels, give a categorical mapping";
    if (label.find_first_of(",:") == std::string::npos && clipped(label) == label && !label.empty())
      hint += ", e.g. --map " + f_.name + "=" + label + ":1";
    return hint;
  }

  void store(int64_t value, size_t offset) {
    if (f_.isInt) ints_[offset] = value;
    else reals_[offset] = static_cast<double>(value);
  }

  [[noreturn]] void fail(DataErrorKind kind, const std::string& detail) const {
    throw DataInputError(kind, where_, detail);
  }

  const DataField& f_;
  const DataLocation& where_;
  const CategoricalMapping* mapping_;
  size_t rank_;
  std::vector<int64_t> dims_;
};

}  // namespace

JsonBlock readJsonBlock(const SourceText& source, const JsonTarget& target, SizeEnvironment& env,
                        const std::vector<CategoricalMapping>& mappings, std::set<std::string>& usedMappings) {
  const DataSchema& schema = *target.schema;
  const std::vector<DataField>& fields = target.partition ? schema.partition : schema.shared;
  const std::vector<DataField>& others = target.partition ? schema.shared : schema.partition;
  DataLocation base{.file = source.name};
  if (target.partition) {
    base.partitionName = schema.partitionName;
    base.partition = target.label;
  }
  json root = parse(source);
  if (target.partition && root.empty() && !fields.empty())
    throw DataInputError(DataErrorKind::Partition, base,
                         "no data: the JSON object is empty (" + blockName(schema, true) + " declares " +
                             std::to_string(fields.size()) + " variables)");

  // Keys the block does not declare, all named (in alphabetical order: nlohmann sorts keys). As
  // CmdStan does, they are ignored (JsonBlock::ignored), unless one is declared in the other data
  // block: then the file is probably the wrong one, or the variable in the wrong file.
  std::vector<std::string> extra;
  std::string hint;
  for (const auto& [key, value] : root.items()) {
    bool declared = false;
    for (const DataField& f : fields) declared = declared || f.name == key;
    if (declared) continue;
    extra.push_back(key);
    for (const DataField& f : others)
      if (f.name == key && hint.empty())
        hint = "; '" + key + "' is declared in " + blockName(schema, !target.partition) + ", so it belongs in " +
               (target.partition ? "the shared data" : "the per-" + schema.partitionName + " data");
  }
  JsonBlock out;
  if (hint.empty()) std::swap(out.ignored, extra);  // none declared in the other block: all ignored
  if (!extra.empty()) {
    std::string names;
    for (const std::string& k : extra) names += (names.empty() ? "" : ", ") + named(k);
    DataLocation where = base;
    where.variable = extra.front();
    throw DataInputError(DataErrorKind::Unexpected, where,
                         (extra.size() == 1 ? "the key " : "the keys ") + names + " " +
                             (extra.size() == 1 ? "is" : "are") + " not declared in " +
                             blockName(schema, target.partition) + hint);
  }
  std::vector<const DataField*> missing;
  for (const DataField& f : fields)
    if (!root.contains(f.name)) missing.push_back(&f);
  if (!missing.empty()) {
    std::string names, suggestions;
    for (const DataField* f : missing) {
      names += (names.empty() ? "'" : ", '") + f->name + "' (" + f->type + ")";
      // A key the file has but the block does not declare, spelt nearly the same: the likely mistake.
      const std::string near = closestName(f->name, out.ignored, 1);
      if (!near.empty())
        suggestions += (suggestions.empty() ? "; did you mean '" : ", '") + f->name + "' for the file's key '" + near + "'";
    }
    if (!suggestions.empty()) suggestions += "?";
    DataLocation where = base;
    where.variable = missing.front()->name;
    throw DataInputError(DataErrorKind::Missing, where,
                         std::string(missing.size() == 1 ? "missing variable " : "missing variables ") + names +
                             " of " + blockName(schema, target.partition) + suggestions);
  }

  for (const DataField& f : fields) {
    DataLocation where = base;
    where.variable = f.name;
    const CategoricalMapping* mapping = findMapping(mappings, f.name);
    if (mapping != nullptr) usedMappings.insert(mapping->column);
    ValueReader reader(f, where, mapping);
    std::vector<int64_t> dims = reader.read(root.at(f.name), env);
    if (f.isInt) {
      if (f.isScalar) {
        env[f.name] = reader.ints_.at(0);
        env.sources[f.name] = source.name;
      }
      out.block.addInts(std::move(reader.ints_));
    } else {
      out.block.addReals(std::move(reader.reals_));
    }
    out.origin.variables.push_back(
        {.name = f.name, .file = source.name, .dims = std::move(dims), .arrayRank = f.arrayDims.size()});
  }
  return out;
}

}  // namespace pvi

#pragma once
// Which partition labels are accepted. A label names its partition in messages and outputs, and
// names a directory: a fit writes each partition's local posterior to <locals-dir>/<label>/. So a
// label must be usable as one file name as it is (labels are not encoded): not empty, not "." or
// "..", no '/' or '\', no control characters (line breaks, tabs, NUL), at most 255 bytes (the
// file name limit of Linux file systems). The loader refuses other labels when it reads them,
// before anything is fitted or written; the locals writer checks the same rule.
// Header-only, so that the output library shares the rule without linking the data library.
#include <cstdio>
#include <string>
#include <string_view>

namespace pvi {

inline constexpr size_t kMaxPartitionLabelBytes = 255;

// Empty when `label` is a usable partition label; else why not, e.g. "it contains '/'".
inline std::string partitionLabelProblem(std::string_view label) {
  if (label.empty()) return "it is empty";
  if (label == "." || label == "..")
    return "'" + std::string(label) + "' names " + (label == "." ? "the directory itself" : "the parent directory");
  for (unsigned char c : label) {
    if (c == '/' || c == '\\') return std::string("it contains '") + static_cast<char>(c) + "'";
    if (c < 0x20 || c == 0x7F) {
      if (c == '\n' || c == '\r') return "it contains a line break";
      if (c == '\t') return "it contains a tab";
      char buf[48];
      std::snprintf(buf, sizeof buf, "it contains the control character 0x%02X", c);
      return buf;
    }
  }
  if (label.size() > kMaxPartitionLabelBytes)
    return "it is " + std::to_string(label.size()) + " bytes long, more than the " +
           std::to_string(kMaxPartitionLabelBytes) + " of a file name";
  return "";
}

}  // namespace pvi

#pragma once
// Reading a model file, for every front end (pvic check / run / build, the embedding API).
#include <optional>
#include <string>

namespace pvi {

// A model is a few kilobytes (Stan's largest are well under 100 KB); a file past this limit is
// not a model, and parsing it would cost about 0.8 s and 250 MB per MB, so it is refused.
constexpr long long kMaxModelFileBytes = 1 << 20;

struct ModelFileText {
  std::optional<std::string> text;  // the whole file, when it could be read
  // Otherwise why not: "cannot read 'f': it is a directory", "cannot read 'f': <reason>", or, when
  // tooLarge, a diagnostic "f: error: the file is N bytes; ...".
  std::string error;
  bool tooLarge = false;
};

ModelFileText readModelFile(const std::string& path);

// The model's name for outputs: the file's stem, or its directory's name for "model.pvi".
std::string modelName(const std::string& path);

}  // namespace pvi

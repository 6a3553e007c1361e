#pragma once
// Atomic replacement of output files: the content goes to a temporary file in the target's
// directory, which is renamed over the target only once it is completely written and flushed.
// A failed or interrupted write never leaves a half-written target: the previous file, if any,
// stays as it was, and the temporary file is removed.
#include <filesystem>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>

namespace pvi::output {

// Thrown when an output file cannot be written; what() names the path and the reason, e.g.
// "cannot write 'out/fit.csv': directory 'out' does not exist".
class OutputError : public std::runtime_error {
 public:
  OutputError(const std::filesystem::path& path, const std::string& reason);
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Calls write(stream) on a temporary file next to `path`, then renames it to `path`. Exceptions
// thrown by `write` propagate unchanged (after the temporary file is removed); I/O failures throw
// OutputError. The parent directory must exist (it is not created).
void writeFileAtomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

// Convenience: atomically writes `content`.
void writeFileAtomically(const std::filesystem::path& path, const std::string& content);

// Creates `dir` (and missing parents) if needed; OutputError if it cannot, or exists and is not a
// directory.
void ensureDirectory(const std::filesystem::path& dir);

}  // namespace pvi::output

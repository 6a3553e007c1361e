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
#include <vector>

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

// The files of one run, published together. While an OutputSet is open on this thread,
// writeFileAtomically leaves each completely written file under its temporary name (a hidden
// sibling of its target, ".<name>.tmp-<pid>-<n>") instead of renaming it, and ensureDirectory
// records the directories it creates. commit() then renames the files into place, in the order
// they were written (so the file written last appears last). An OutputSet destroyed without a
// commit (a write failed, an exception left the scope) removes its temporary files and the
// directories it created, if empty: a failed run leaves nothing that looks like a result, and the
// results of an earlier run stay as they were.
//
//   OutputSet outputs;
//   writeReport(dir, report);    // staged
//   writeStanCsv(path, ...);     // staged
//   outputs.commit();            // published; OutputError if a rename fails
class OutputSet {
 public:
  OutputSet();
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  void commit();

  // Used by writeFileAtomically and ensureDirectory.
  static OutputSet* current();
  void stage(std::filesystem::path temporary, std::filesystem::path target);
  void created(std::filesystem::path dir);

 private:
  struct Staged {
    std::filesystem::path temporary, target;
  };
  std::vector<Staged> files_;
  std::vector<std::filesystem::path> directories_;  // created, parents first
  std::size_t published_ = 0;
  bool committed_ = false;
  OutputSet* outer_;
};

}  // namespace pvi::output

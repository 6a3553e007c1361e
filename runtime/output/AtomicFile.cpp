#include "runtime/output/AtomicFile.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace pvi::output {

namespace fs = std::filesystem;

OutputError::OutputError(const fs::path& path, const std::string& reason)
    : std::runtime_error("cannot write '" + path.string() + "': " + reason), path_(path) {}

namespace {

fs::path parentOf(const fs::path& path) {
  fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// Checks what can be checked before writing, for clearer messages than the OS's.
void checkTarget(const fs::path& path) {
  if (path.filename().empty()) throw OutputError(path, "the path names a directory, not a file");
  const fs::path dir = parentOf(path);
  std::error_code ec;
  const fs::file_status dirStatus = fs::status(dir, ec);
  if (!fs::exists(dirStatus)) throw OutputError(path, "directory '" + dir.string() + "' does not exist");
  if (!fs::is_directory(dirStatus)) throw OutputError(path, "'" + dir.string() + "' is not a directory");
  if (fs::is_directory(fs::status(path, ec))) throw OutputError(path, "it is a directory");
}

// Creates a fresh temporary file next to `path` (O_EXCL, so never someone else's file) and
// returns its name. Permissions follow the umask like any new file's.
fs::path createTemporary(const fs::path& path) {
  static std::atomic<unsigned long> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path tmp = parentOf(path) / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()) +
                                           "-" + std::to_string(counter++));
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return tmp;
    }
    if (errno != EEXIST) {
      throw OutputError(path, "cannot create a temporary file in '" + parentOf(path).string() +
                                  "': " + std::strerror(errno));
    }
  }
  throw OutputError(path, "cannot find an unused temporary file name");
}

// Flushes the file's data to the device, so that the rename never exposes an empty file after
// a crash.
bool syncFile(const fs::path& file, int flags) {
  const int fd = ::open(file.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0 || errno == EINVAL;  // EINVAL: the file system cannot sync
  ::close(fd);
  return ok;
}

class TemporaryGuard {
 public:
  explicit TemporaryGuard(fs::path p) : path_(std::move(p)) {}
  ~TemporaryGuard() {
    if (!path_.empty()) {
      std::error_code ec;
      fs::remove(path_, ec);
    }
  }
  void release() { path_.clear(); }

 private:
  fs::path path_;
};

}  // namespace

void writeFileAtomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  checkTarget(path);
  const fs::path tmp = createTemporary(path);
  TemporaryGuard guard(tmp);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw OutputError(path, "cannot open temporary file '" + tmp.string() + "'");
    write(out);
    out.flush();
    if (!out) throw OutputError(path, "write failed (disk full?)");
    out.close();
    if (!out) throw OutputError(path, "closing the temporary file failed");
  }
  if (!syncFile(tmp, O_RDONLY)) throw OutputError(path, std::string("fsync failed: ") + std::strerror(errno));
  if (OutputSet* set = OutputSet::current()) {  // published by the set's commit()
    set->stage(tmp, path);
    guard.release();
    return;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw OutputError(path, "renaming the temporary file into place failed: " + ec.message());
  guard.release();
  syncFile(parentOf(path), O_RDONLY | O_DIRECTORY);  // best effort: makes the rename durable
}

void writeFileAtomically(const fs::path& path, const std::string& content) {
  writeFileAtomically(path, [&](std::ostream& os) { os << content; });
}

void ensureDirectory(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return;
  if (fs::exists(dir, ec)) throw OutputError(dir, "it exists and is not a directory");
  OutputSet* set = OutputSet::current();
  if (set == nullptr) {
    fs::create_directories(dir, ec);
    if (ec) throw OutputError(dir, "cannot create the directory: " + ec.message());
    return;
  }
  // One level at a time, so that the set knows which directories it made.
  fs::path d = dir.lexically_normal();
  if (!d.has_filename()) d = d.parent_path();  // "out/" -> "out"
  std::vector<fs::path> missing;
  for (fs::path p = d; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (!fs::create_directory(*it, ec)) {
      if (ec) throw OutputError(dir, "cannot create the directory: " + ec.message());
      if (!fs::is_directory(*it, ec)) throw OutputError(dir, "'" + it->string() + "' is not a directory");
      continue;  // made by someone else meanwhile: not ours to remove
    }
    set->created(*it);
  }
}

namespace {

thread_local OutputSet* currentSet = nullptr;

}  // namespace

OutputSet::OutputSet() : outer_(currentSet) { currentSet = this; }

OutputSet* OutputSet::current() { return currentSet; }

void OutputSet::stage(fs::path temporary, fs::path target) {
  files_.push_back({std::move(temporary), std::move(target)});
}

void OutputSet::created(fs::path dir) { directories_.push_back(std::move(dir)); }

void OutputSet::commit() {
  if (committed_) return;
  std::vector<fs::path> parents;
  for (; published_ < files_.size(); ++published_) {
    const Staged& f = files_[published_];
    std::error_code ec;
    fs::rename(f.temporary, f.target, ec);
    if (ec) throw OutputError(f.target, "renaming the temporary file into place failed: " + ec.message());
    parents.push_back(parentOf(f.target));
  }
  committed_ = true;
  std::sort(parents.begin(), parents.end());
  parents.erase(std::unique(parents.begin(), parents.end()), parents.end());
  for (const fs::path& p : parents) syncFile(p, O_RDONLY | O_DIRECTORY);  // best effort, as above
}

OutputSet::~OutputSet() {
  currentSet = outer_;
  if (committed_) return;
  std::error_code ec;
  for (std::size_t i = published_; i < files_.size(); ++i) fs::remove(files_[i].temporary, ec);
  // Children before parents; a directory that is not empty (someone else's file) stays.
  for (auto it = directories_.rbegin(); it != directories_.rend(); ++it) fs::remove(*it, ec);
}

}  // namespace pvi::output

// Atomic output files: complete replacement or nothing, clear errors for unwritable paths.
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "OutputTestSupport.hpp"
#include "runtime/output/AtomicFile.hpp"

namespace pvi::output {
namespace {

using test::readFile;
using test::TempDir;

// The message of the OutputError that `f` throws ("" if none).
template <class F>
std::string outputErrorOf(F f) {
  try {
    f();
  } catch (const OutputError& e) {
    return e.what();
  }
  return "";
}

TEST(AtomicFile, WritesNewFileAndReplacesExistingOne) {
  TempDir dir;
  writeFileAtomically(dir / "out.txt", std::string("first\n"));
  EXPECT_EQ(readFile(dir / "out.txt"), "first\n");
  writeFileAtomically(dir / "out.txt", [](std::ostream& os) { os << "second " << 2 << '\n'; });
  EXPECT_EQ(readFile(dir / "out.txt"), "second 2\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.txt"});  // no temporary file left
}

TEST(AtomicFile, WriterThatThrowsMidwayLeavesPreviousFileIntactAndNoTemporary) {
  TempDir dir;
  writeFileAtomically(dir / "fit.csv", std::string("previous content\n"));
  EXPECT_THROW(writeFileAtomically(dir / "fit.csv",
                                   [](std::ostream& os) {
                                     os << std::string(1 << 20, 'x');  // more than any stream buffer
                                     os.flush();
                                     throw std::logic_error("writer failed");
                                   }),
               std::logic_error);  // the writer's own exception, unchanged
  EXPECT_EQ(readFile(dir / "fit.csv"), "previous content\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"fit.csv"});
}

TEST(AtomicFile, WriterThatThrowsLeavesNoFileWhenThereWasNone) {
  TempDir dir;
  EXPECT_THROW(writeFileAtomically(dir / "new.csv", [](std::ostream&) { throw std::runtime_error("no"); }),
               std::runtime_error);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(AtomicFile, MissingDirectoryIsReported) {
  TempDir dir;
  const auto target = dir / "no_such_dir" / "fit.csv";
  const std::string message = outputErrorOf([&] { writeFileAtomically(target, std::string("x")); });
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
}

TEST(AtomicFile, TargetThatIsADirectoryIsReported) {
  TempDir dir;
  std::filesystem::create_directory(dir / "fit.csv");
  const std::string message = outputErrorOf([&] { writeFileAtomically(dir / "fit.csv", std::string("x")); });
  EXPECT_NE(message.find("is a directory"), std::string::npos) << message;
  EXPECT_TRUE(std::filesystem::is_directory(dir / "fit.csv"));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"fit.csv"});
}

TEST(AtomicFile, ParentThatIsAFileIsReported) {
  TempDir dir;
  writeFileAtomically(dir / "plain", std::string("x"));
  const std::string message = outputErrorOf([&] { writeFileAtomically(dir / "plain" / "fit.csv", std::string("x")); });
  EXPECT_NE(message.find("is not a directory"), std::string::npos) << message;
}

// Clears the capabilities that bypass file permission checks (CAP_DAC_OVERRIDE,
// CAP_DAC_READ_SEARCH, CAP_FOWNER) from the calling thread's effective set, and restores them on
// destruction (they stay in the permitted set, so raising them again is allowed). With them gone,
// root meets the same permission checks as any user, so a test that needs a permission error runs
// under CI, which runs as root. Capabilities are per thread; the code under test runs on this one.
class WithoutPermissionOverride {
 public:
  WithoutPermissionOverride() {
    if (::syscall(SYS_capget, &header_, saved_) != 0) {
      error_ = std::string("capget: ") + std::strerror(errno);
      return;
    }
    __user_cap_data_struct reduced[_LINUX_CAPABILITY_U32S_3];
    std::copy(std::begin(saved_), std::end(saved_), std::begin(reduced));
    for (int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER}) reduced[0].effective &= ~(1u << cap);
    if (::syscall(SYS_capset, &header_, reduced) != 0) error_ = std::string("capset: ") + std::strerror(errno);
  }
  ~WithoutPermissionOverride() {
    if (error_.empty()) ::syscall(SYS_capset, &header_, saved_);
  }
  const std::string& error() const { return error_; }

 private:
  __user_cap_header_struct header_{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct saved_[_LINUX_CAPABILITY_U32S_3]{};
  std::string error_;
};

// Runs as root too (CI): the permission override is dropped for the write, not the test skipped.
TEST(AtomicFile, ReadOnlyDirectoryIsReported) {
  TempDir dir;
  const auto ro = dir / "readonly";
  std::filesystem::create_directory(ro);
  writeFileAtomically(ro / "fit.csv", std::string("kept\n"));
  std::filesystem::permissions(ro, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  std::string message;
  {
    WithoutPermissionOverride unprivileged;
    ASSERT_EQ(unprivileged.error(), "");
    message = outputErrorOf([&] { writeFileAtomically(ro / "fit.csv", std::string("new\n")); });
  }
  EXPECT_NE(message.find((ro / "fit.csv").string()), std::string::npos) << message;
  EXPECT_NE(message.find("Permission denied"), std::string::npos) << message;
  EXPECT_EQ(readFile(ro / "fit.csv"), "kept\n");
  EXPECT_EQ(TempDir::entriesOf(ro), std::vector<std::string>{"fit.csv"});  // no temporary file left
}

TEST(AtomicFile, EnsureDirectoryCreatesParentsAndRejectsFiles) {
  TempDir dir;
  ensureDirectory(dir / "a" / "b");
  EXPECT_TRUE(std::filesystem::is_directory(dir / "a" / "b"));
  ensureDirectory(dir / "a" / "b");  // already there: fine
  writeFileAtomically(dir / "file", std::string("x"));
  EXPECT_THROW(ensureDirectory(dir / "file"), OutputError);
}

// Output sets: a run's files are published together, or not at all.
TEST(OutputSet, FilesAppearOnlyWhenTheSetIsCommitted) {
  TempDir dir;
  {
    OutputSet set;
    writeFileAtomically(dir / "fit.csv", std::string("draws\n"));
    ensureDirectory(dir / "fit-locals" / "north");
    writeFileAtomically(dir / "fit-locals" / "north" / "locals.csv", std::string("locals\n"));
    EXPECT_FALSE(std::filesystem::exists(dir / "fit.csv"));
    EXPECT_FALSE(std::filesystem::exists(dir / "fit-locals" / "north" / "locals.csv"));
    set.commit();
  }
  EXPECT_EQ(readFile(dir / "fit.csv"), "draws\n");
  EXPECT_EQ(readFile(dir / "fit-locals" / "north" / "locals.csv"), "locals\n");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"fit-locals", "fit.csv"}));  // no temporary file left
  EXPECT_EQ(test::TempDir::entriesOf(dir / "fit-locals" / "north"), std::vector<std::string>{"locals.csv"});
}

TEST(OutputSet, WithoutACommitNothingIsLeftAndEarlierResultsStay) {
  TempDir dir;
  writeFileAtomically(dir / "fit.csv", std::string("earlier run\n"));
  std::filesystem::create_directory(dir / "report");
  writeFileAtomically(dir / "report" / "notes.txt", std::string("the user's\n"));
  {
    OutputSet set;
    writeFileAtomically(dir / "fit.csv", std::string("this run\n"));
    writeFileAtomically(dir / "fit-summary.json", std::string("{}\n"));
    ensureDirectory(dir / "fit-locals" / "a" / "b");
    writeFileAtomically(dir / "fit-locals" / "a" / "b" / "locals.csv", std::string("x\n"));
    ensureDirectory(dir / "report");  // existed before: not the set's to remove
    writeFileAtomically(dir / "report" / "index.html", std::string("<html>\n"));
  }  // no commit: a write failed
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"fit.csv", "report"}));
  EXPECT_EQ(readFile(dir / "fit.csv"), "earlier run\n");
  EXPECT_EQ(test::TempDir::entriesOf(dir / "report"), std::vector<std::string>{"notes.txt"});
}

TEST(OutputSet, AFailingWriteUnwindsTheWholeSet) {
  TempDir dir;
  const auto run = [&] {
    OutputSet set;
    writeFileAtomically(dir / "fit-summary.json", std::string("{}\n"));
    writeFileAtomically(dir / "fit.csv", [](std::ostream& os) {
      os << "half";
      throw std::runtime_error("the disk is full");
    });
    set.commit();
  };
  EXPECT_THROW(run(), std::runtime_error);
  EXPECT_TRUE(dir.entries().empty());
  // Without a set, each file is on its own again.
  writeFileAtomically(dir / "fit.csv", std::string("x"));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"fit.csv"});
}

}  // namespace
}  // namespace pvi::output

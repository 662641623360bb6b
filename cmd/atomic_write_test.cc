#include "cmd/atomic_write.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace jobset {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "atomic-write-XXXXXX").string();
    path = mkdtemp(t.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("atomic_write: replaces the contents, keeps the mode, leaves no temporary file") {
  TempDir dir;
  fs::path file = dir.path / "job.yaml";
  std::ofstream(file) << "old\n";
  chmod(file.c_str(), 0640);
  std::string error;
  REQUIRE(WriteFileAtomically(file.string(), "new\ncontent\n", &error));
  CHECK(Read(file) == "new\ncontent\n");
  struct stat st;
  REQUIRE(stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
}

TEST_CASE("atomic_write: a symbolic link stays a link, its target gets the contents") {
  TempDir dir;
  fs::path target = dir.path / "real.yaml", link = dir.path / "link.yaml";
  std::ofstream(target) << "old\n";
  fs::create_symlink("real.yaml", link);
  std::string error;
  REQUIRE(WriteFileAtomically(link.string(), "new\n", &error));
  CHECK(fs::is_symlink(link));
  CHECK(Read(target) == "new\n");
}

TEST_CASE("atomic_write: a missing file is an error naming it, and nothing is created") {
  TempDir dir;
  fs::path file = dir.path / "absent.yaml";
  std::string error;
  CHECK_FALSE(WriteFileAtomically(file.string(), "x", &error));
  CHECK(error.find("absent.yaml") != std::string::npos);
  CHECK(fs::is_empty(dir.path));
}

}  // namespace jobset

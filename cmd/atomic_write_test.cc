#include "cmd/atomic_write.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

TEST_CASE("atomic_write: the owner and group stay those of the file (root in CI containers)") {
  if (geteuid() != 0) return;  // only root can give a file to someone else
  TempDir dir;
  fs::path file = dir.path / "job.yaml";
  std::ofstream(file) << "old\n";
  REQUIRE(chown(file.c_str(), 12345, 23456) == 0);
  REQUIRE(chmod(file.c_str(), 02640) == 0);  // set-group-ID: a chown after the chmod clears it
  std::string error;
  REQUIRE(WriteFileAtomically(file.string(), "new\n", &error));
  CHECK(Read(file) == "new\n");
  struct stat st;
  REQUIRE(stat(file.c_str(), &st) == 0);
  CHECK(st.st_uid == 12345u);
  CHECK(st.st_gid == 23456u);
  CHECK((st.st_mode & 07777) == 02640);
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
}

TEST_CASE("atomic_write: a file with several hard links is rewritten in place") {
  TempDir dir;
  fs::path file = dir.path / "job.yaml", other = dir.path / "also.yaml";
  std::ofstream(file) << "old contents\n";
  fs::create_hard_link(file, other);
  struct stat before;
  REQUIRE(stat(file.c_str(), &before) == 0);
  std::string error;
  REQUIRE(WriteFileAtomically(file.string(), "new\n", &error));
  CHECK(Read(file) == "new\n");
  CHECK(Read(other) == "new\n");  // a rename would have left the other name with "old"
  struct stat after;
  REQUIRE(stat(file.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  CHECK(after.st_nlink == 2);
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 2);
}

TEST_CASE("atomic_write: a user who may not give the file its owner writes it in place") {
  if (geteuid() != 0) return;  // needs root to set up a file owned by someone else
  TempDir dir;
  fs::path file = dir.path / "job.yaml";
  std::ofstream(file) << "old\n";
  REQUIRE(chmod(dir.path.c_str(), 0777) == 0);
  REQUIRE(chmod(file.c_str(), 0666) == 0);  // root's file, writable by all
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // as nobody: the temporary file could not be given to root
    std::string error;
    _exit(setuid(65534) == 0 && WriteFileAtomically(file.string(), "new\n", &error) ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(Read(file) == "new\n");
  struct stat st;
  REQUIRE(stat(file.c_str(), &st) == 0);
  CHECK(st.st_uid == 0u);
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
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

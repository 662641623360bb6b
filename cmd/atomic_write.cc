#include "cmd/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace jobset {
namespace {

namespace fs = std::filesystem;

bool Fail(const std::string& what, std::string* error) {
  *error = what + ": " + std::strerror(errno);
  return false;
}

bool WriteAll(int fd, std::string_view content) {
  for (size_t done = 0; done < content.size();) {
    ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Makes a rename in `dir` durable. Some file systems refuse fsync on a folder (EINVAL): the
// rename has happened by then, so only real I/O errors count.
bool SyncDirectory(const fs::path& dir, const std::string& path, std::string* error) {
  int fd = open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Fail(path + ": cannot open its folder to sync it", error);
  bool ok = fsync(fd) == 0 || errno == EINVAL || errno == EROFS;
  if (!ok) Fail(path + ": cannot sync its folder", error);
  close(fd);
  return ok;
}

// Rewrites the file itself: same inode, so hard links, owner, group and mode stay as they are.
// Not atomic: a crash midway can leave a part, which is why this is only the fallback.
bool WriteInPlace(const fs::path& target, const std::string& path, std::string_view content,
                  std::string* error) {
  int fd = open(target.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Fail(path + ": cannot open it for writing", error);
  bool ok = WriteAll(fd, content) || Fail(path + ": cannot write it", error);
  if (ok && ftruncate(fd, static_cast<off_t>(content.size())) != 0)
    ok = Fail(path + ": cannot truncate it", error);
  if (ok && fsync(fd) != 0) ok = Fail(path + ": cannot sync it", error);
  if (close(fd) != 0 && ok) ok = Fail(path + ": cannot write it", error);
  return ok;
}

}  // namespace

bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error) {
  std::error_code ec;
  fs::path target = path;
  if (fs::is_symlink(target, ec)) {
    target = fs::canonical(target, ec);
    if (ec) {
      *error = path + ": " + ec.message();
      return false;
    }
  }
  struct stat st;
  if (stat(target.c_str(), &st) != 0) return Fail(path, error);
  if (st.st_nlink > 1) return WriteInPlace(target, path, content, error);
  fs::path dir = target.parent_path();
  std::string temp =
      (dir.empty() ? fs::path(".") : dir) / ("." + target.filename().string() + ".fix-XXXXXX");
  int fd = mkstemp(temp.data());
  if (fd < 0) return Fail(path + ": cannot create a temporary file in " + dir.string(), error);
  // Owner and group first: a chown clears the set-user-ID and set-group-ID bits.
  if (fchown(fd, st.st_uid, st.st_gid) != 0) {
    const bool not_allowed = errno == EPERM;
    close(fd);
    unlink(temp.c_str());
    if (not_allowed) return WriteInPlace(target, path, content, error);
    return Fail(path + ": cannot set the owner of " + temp, error);
  }
  bool ok = true;
  std::string message;
  if (!WriteAll(fd, content)) ok = Fail(path + ": cannot write " + temp, &message);
  if (ok && fchmod(fd, st.st_mode & 07777) != 0)
    ok = Fail(path + ": cannot set the permissions of " + temp, &message);
  if (ok && fsync(fd) != 0) ok = Fail(path + ": cannot write " + temp, &message);
  if (close(fd) != 0 && ok) ok = Fail(path + ": cannot write " + temp, &message);
  if (ok && rename(temp.c_str(), target.c_str()) != 0)
    ok = Fail(path + ": cannot replace the file", &message);
  if (!ok) {
    unlink(temp.c_str());
    *error = message;
    return false;
  }
  return SyncDirectory(dir, path, error);
}

}  // namespace jobset

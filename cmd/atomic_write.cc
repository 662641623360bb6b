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
  fs::path dir = target.parent_path();
  std::string temp =
      (dir.empty() ? fs::path(".") : dir) / ("." + target.filename().string() + ".fix-XXXXXX");
  int fd = mkstemp(temp.data());
  if (fd < 0) return Fail(path + ": cannot create a temporary file in " + dir.string(), error);
  bool ok = true;
  std::string message;
  for (size_t done = 0; ok && done < content.size();) {
    ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ok = Fail(path + ": cannot write " + temp, &message);
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (ok && fchmod(fd, st.st_mode & 07777) != 0)
    ok = Fail(path + ": cannot set the permissions of " + temp, &message);
  if (ok && fsync(fd) != 0) ok = Fail(path + ": cannot write " + temp, &message);
  if (close(fd) != 0 && ok) ok = Fail(path + ": cannot write " + temp, &message);
  if (ok && rename(temp.c_str(), target.c_str()) != 0)
    ok = Fail(path + ": cannot replace the file", &message);
  if (!ok) {
    unlink(temp.c_str());
    *error = message;
  }
  return ok;
}

}  // namespace jobset

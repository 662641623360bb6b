#include "cmd/why_kubectl.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ostream>

extern char** environ;

namespace jobset {
namespace {

// The words after `key` in `text` up to the next quote: `cannot list resource "jobs"` -> jobs.
std::string Quoted(std::string_view text, std::string_view key) {
  size_t at = text.find(key);
  if (at == std::string_view::npos) return {};
  size_t begin = text.find('"', at + key.size());
  if (begin == std::string_view::npos) return {};
  size_t end = text.find('"', begin + 1);
  return end == std::string_view::npos ? std::string()
                                       : std::string(text.substr(begin + 1, end - begin - 1));
}

std::string FirstLine(std::string_view text) {
  while (!text.empty() && (text.front() == '\n' || text.front() == ' ')) text.remove_prefix(1);
  return std::string(text.substr(0, text.find('\n')));
}

}  // namespace

std::string KubectlBinary() {
  const char* k = std::getenv("KUBECTL");
  return k != nullptr && *k ? k : "kubectl";
}

int RunProcess(const std::vector<std::string>& argv,
               const std::function<bool(std::string_view)>& on_stdout, std::string* err_text) {
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0) {
    *err_text = std::strerror(errno);
    return -1;
  }
  if (pipe(err_pipe) != 0) {
    *err_text = std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
  posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    *err_text = std::strerror(rc);
    close(out_pipe[0]);
    close(err_pipe[0]);
    return -1;
  }
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  bool stopped = false;
  char buffer[65536];
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (pollfd& p : fds) {
      if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(p.fd, buffer, sizeof(buffer));
      if (n <= 0) {
        close(p.fd);
        p.fd = -1;
        --open_fds;
        continue;
      }
      if (p.fd == out_pipe[0]) {
        if (!stopped && !on_stdout(std::string_view(buffer, static_cast<size_t>(n)))) {
          stopped = true;
          kill(pid, SIGTERM);
        }
      } else {
        err_text->append(buffer, static_cast<size_t>(n));
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (stopped) return 0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void AddAccessFlags(const KubectlAccess& access, std::vector<std::string>* argv) {
  if (!access.namespace_name.empty()) {
    argv->push_back("--namespace");
    argv->push_back(access.namespace_name);
  }
  if (!access.context.empty()) {
    argv->push_back("--context");
    argv->push_back(access.context);
  }
  if (!access.kubeconfig.empty()) {
    argv->push_back("--kubeconfig");
    argv->push_back(access.kubeconfig);
  }
}

int Kubectl(const std::vector<std::string>& args, std::string* out, std::ostream& err) {
  std::vector<std::string> argv = {KubectlBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string err_text;
  int status = RunProcess(
      argv,
      [&](std::string_view chunk) {
        out->append(chunk);
        return true;
      },
      &err_text);
  if (status == -1) {
    err << "error: cannot run " << argv[0] << " (set KUBECTL to the kubectl binary): " << err_text
        << "\n";
    return 2;
  }
  if (status != 0) {
    err << "error: " << KubectlErrorMessage(err_text, status) << "\n";
    return 2;
  }
  out->push_back('\n');
  return 0;
}

std::vector<std::vector<std::string>> WhyKubectlCalls(const KindHandler& kind,
                                                      std::string_view name,
                                                      const KubectlAccess& access) {
  std::vector<std::vector<std::string>> calls = {
      {"get", std::string(kind.resource), std::string(name), "-o", "json"},
      {"get", std::string(kind.child_resources), "-l",
       std::string(kind.child_label) + "=" + std::string(name), "-o", "json"},
      {"get", "events", "-o", "json"},
  };
  for (auto& call : calls) AddAccessFlags(access, &call);
  return calls;
}

std::string KubectlErrorMessage(std::string_view text, int status) {
  std::string line = FirstLine(text);
  if (text.find("(Forbidden)") != std::string_view::npos ||
      text.find("is forbidden") != std::string_view::npos) {
    std::string verb;
    size_t at = text.find("cannot ");
    if (at != std::string_view::npos) {
      size_t end = text.find(' ', at + 7);
      verb = std::string(text.substr(at + 7, end - at - 7));
    }
    std::string resource = Quoted(text, "resource ");
    std::string group = Quoted(text, "API group ");
    std::string ns = Quoted(text, "the namespace ");
    if (!verb.empty() && !resource.empty()) {
      return "access denied: you may not " + verb + " " + resource +
             (group.empty() ? "" : "." + group) +
             (ns.empty() ? " at cluster scope" : " in namespace " + ns) +
             " (ask for RBAC get and list on jobsets, jobs, pods and events); kubectl said: " +
             line;
    }
    return "access denied: " + line;
  }
  if (text.find("(NotFound)") != std::string_view::npos) return "not found: " + line;
  if (line.empty()) return "kubectl failed with exit status " + std::to_string(status);
  return "kubectl failed (exit status " + std::to_string(status) + "): " + line;
}

}  // namespace jobset

#include "cmd/monte_carlo_flags.h"

#include <unistd.h>

#include <csignal>
#include <ostream>

namespace jobset {
namespace {

// Set by SIGINT: the one piece of process-wide state, as a signal handler can only reach globals.
std::atomic<bool> g_interrupted{false};

extern "C" void OnInterrupt(int) { g_interrupted.store(true); }

}  // namespace

InterruptScope::InterruptScope() {
  g_interrupted.store(false);
  previous_ = std::signal(SIGINT, OnInterrupt);
}

InterruptScope::~InterruptScope() { std::signal(SIGINT, previous_); }

const std::atomic<bool>* InterruptScope::flag() const { return &g_interrupted; }

bool InterruptScope::interrupted() const { return g_interrupted.load(); }

SimProgress ProgressBar(const std::string& label, std::ostream& err) {
  if (!isatty(STDERR_FILENO)) return nullptr;
  return [&err, label](int64_t done, int64_t total) {
    int width = 30, filled = total ? static_cast<int>(width * done / total) : width;
    err << "\r" << label << " [" << std::string(filled, '#') << std::string(width - filled, '.')
        << "] " << done << "/" << total << std::flush;
  };
}

bool CheckModelFlagsOnly(const SimulateFlags& flags, std::string_view kind, std::string* error) {
  if (!flags.plot.empty()) {
    *error = "--plot is not supported for " + std::string(kind);
    return false;
  }
  if (!flags.fail.empty() || !flags.scenario.empty()) {
    *error = "--monte-carlo on " + std::string(kind) +
             " takes its model from flags, not --fail or --scenario";
    return false;
  }
  return true;
}

void ClearProgress(std::ostream& err) {
  if (isatty(STDERR_FILENO)) err << "\r\033[K" << std::flush;
}

}  // namespace jobset

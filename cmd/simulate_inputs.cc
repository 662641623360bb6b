#include "cmd/simulate_inputs.h"

#include "validation/core/loader.h"
#include "validation/sim/duration.h"

namespace jobset {

bool LoadScenarioFile(const std::string& path, Node* root, std::string* error) {
  SourceFile file;
  if (!LoadFile(path, LoadLimits{}, &file, error)) return false;
  if (file.documents.empty() || !file.documents[0].parsed) {
    *error = path + ": " +
             (file.documents.empty() || file.documents[0].problems.empty()
                  ? std::string("empty file")
                  : file.documents[0].problems[0].message);
    return false;
  }
  *root = std::move(file.documents[0].root);
  return true;
}

bool ParseDurationFlag(const std::string& flag, const std::string& text, double* out,
                       std::string* error) {
  if (text.empty()) return true;
  std::string e;
  if (!ParseGoDuration(text, out, &e)) {
    *error = "--" + flag + ": " + e;
    return false;
  }
  return true;
}

bool WithinModelledPods(int64_t pods, const std::string& what, const std::string& file,
                        std::ostream& err) {
  if (pods <= kMaxModelledPods) return true;
  err << "error: " << file << ": " << what << " has " << pods
      << " pods; explain and simulate model at most " << kMaxModelledPods << "\n";
  return false;
}

}  // namespace jobset

// Writes the fuzz targets' seed corpora and dictionaries (docs/fuzzing.md):
//   make_seeds SOURCE_DIR OUT_DIR
// OUT_DIR/lint/       every manifest of examples/ and tests/ as it is, and large structured
//                     inputs the fuzzer would not grow by itself (many documents, wide
//                     mappings, long lists, deep nesting, anchors and aliases);
// OUT_DIR/json/       each parsed document as compact JSON, and the large inputs as JSON;
// OUT_DIR/admission/  AdmissionReviews (CREATE and UPDATE, v1 and v1beta1) of those documents,
//                     prefixed by the byte that picks the endpoint (admission_fuzz.cc);
// OUT_DIR/schema.dict the schemas' property names and the YAML and JSON tokens, as libFuzzer
//                     dictionary entries.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "validation/core/json_node.h"
#include "validation/core/loader.h"

namespace {

namespace fs = std::filesystem;

int written = 0;

void Write(const fs::path& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out << data;
  ++written;
}

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string Review(const std::string& api_version, const std::string& operation,
                   const std::string& object, const std::string& old_object) {
  std::string r = R"({"apiVersion":")" + api_version +
                  R"(","kind":"AdmissionReview","request":{"uid":"u","operation":")" + operation +
                  R"(","name":"n","namespace":"default","object":)" + object;
  if (!old_object.empty()) r += R"(,"oldObject":)" + old_object;
  return r + "}}";
}

// The endpoint byte of admission_fuzz.cc: 0 mutate JobSet, 1 validate JobSet, 2 mutate
// Volcano, 3 validate Volcano.
void WriteAdmission(const fs::path& dir, const std::string& name, const std::string& json,
                    bool volcano) {
  char validate = volcano ? '\3' : '\1', mutate = volcano ? '\2' : '\0';
  Write(dir / (name + "-create"),
        std::string(1, validate) + Review("admission.k8s.io/v1", "CREATE", json, ""));
  Write(dir / (name + "-mutate"),
        std::string(1, mutate) + Review("admission.k8s.io/v1beta1", "CREATE", json, ""));
  Write(dir / (name + "-update"),
        std::string(1, validate) + Review("admission.k8s.io/v1", "UPDATE", json, json));
}

// A JobSet with `n` replicated jobs, and `labels` labels on its first pod template.
std::string WideJobSet(int n, int labels) {
  std::string y =
      "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: wide\nspec:\n"
      "  replicatedJobs:\n";
  for (int i = 0; i < n; ++i) {
    y += "  - name: rj-" + std::to_string(i) + "\n    replicas: 1\n";
    if (i > 0)
      y += "    dependsOn:\n    - name: rj-" + std::to_string(i - 1) + "\n      status: Ready\n";
    y += "    template:\n      spec:\n        template:\n";
    if (i == 0 && labels > 0) {
      y += "          metadata:\n            labels:\n";
      for (int k = 0; k < labels; ++k) y += "              k" + std::to_string(k) + ": v\n";
    }
    y +=
        "          spec:\n            containers:\n            - name: c\n              image: i\n";
  }
  return y;
}

std::vector<std::pair<std::string, std::string>> LargeInputs() {
  std::vector<std::pair<std::string, std::string>> out;
  std::string docs;
  for (int i = 0; i < 200; ++i) docs += (i ? "---\n" : "") + WideJobSet(2, 0);
  out.push_back({"many-documents", docs});
  out.push_back({"many-replicated-jobs", WideJobSet(500, 0)});
  out.push_back({"wide-labels", WideJobSet(2, 3000)});
  std::string dup = "apiVersion: v1\nkind: ConfigMap\ndata:\n";
  for (int i = 0; i < 3000; ++i) dup += "  k" + std::to_string(i % 2000) + ": v\n";
  out.push_back({"duplicate-keys", dup});
  std::string list = "items:\n";
  for (int i = 0; i < 5000; ++i) list += "- " + std::to_string(i) + "\n";
  out.push_back({"long-list", list});
  out.push_back({"deep-flow", std::string(900, '[') + std::string(900, ']')});
  std::string block;
  for (int i = 0; i < 300; ++i) block += std::string(i, ' ') + "k:\n";
  out.push_back({"deep-block", block});
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'f'; ++c) {
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 9; ++i) bomb += std::string(i ? ", " : "") + "*" + char(c - 1);
    bomb += "]\n";
  }
  out.push_back({"alias-levels", bomb});
  std::string merges = "base: &b {a: 1, b: 2}\n";
  for (int i = 0; i < 500; ++i) merges += "m" + std::to_string(i) + ": {<<: *b, c: 3}\n";
  out.push_back({"merge-keys", merges});
  return out;
}

void CollectKeys(const nlohmann::json& j, std::set<std::string>* keys) {
  if (j.is_object()) {
    if (auto p = j.find("properties"); p != j.end() && p->is_object()) {
      for (auto it = p->begin(); it != p->end(); ++it) keys->insert(it.key());
    }
    for (const auto& [k, v] : j.items()) CollectKeys(v, keys);
  } else if (j.is_array()) {
    for (const auto& v : j) CollectKeys(v, keys);
  }
}

std::string DictEntry(const std::string& s) {
  std::string e = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      e += '\\';
      e += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      e += buf;
    } else {
      e += static_cast<char>(c);
    }
  }
  return e + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_seeds SOURCE_DIR OUT_DIR\n";
    return 2;
  }
  const fs::path source = argv[1], out = argv[2];
  for (const char* sub : {"lint", "json", "admission"}) fs::create_directories(out / sub);
  std::vector<std::pair<std::string, std::string>> inputs;
  std::vector<fs::path> files;
  for (const char* dir : {"examples", "tests/fixtures", "tests/webhook", "tests/golden"}) {
    if (!fs::exists(source / dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(source / dir)) {
      std::string ext = e.path().extension().string();
      if (e.is_regular_file() &&
          (ext == ".yaml" || ext == ".yml" || ext == ".json" || ext == ".stdin")) {
        files.push_back(e.path());
      }
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::string name = fs::relative(f, source).string();
    for (char& c : name) c = c == '/' ? '_' : c;
    inputs.push_back({name, Read(f)});
  }
  for (auto& large : LargeInputs()) inputs.push_back(large);
  for (const auto& [name, text] : inputs) {
    Write(out / "lint" / name, text);
    jobset::SourceFile file = jobset::ParseSource(name, text);
    for (const jobset::Document& d : file.documents) {
      if (!d.parsed || !d.root.is_map()) continue;
      std::string json = jobset::NodeToJsonText(d.root);
      std::string doc = name + "-" + std::to_string(d.index);
      Write(out / "json" / doc, json);
      const bool volcano = d.root.StringOr("kind") == "Job";
      WriteAdmission(out / "admission", doc, json, volcano);
      if (d.index >= 3) break;  // A few documents of a many-document file are enough.
    }
  }
  std::set<std::string> keys;
  for (const char* schema : {"schemas/jobset.v1alpha2.json", "schemas/volcano.v1alpha1.json"}) {
    nlohmann::json j = nlohmann::json::parse(Read(source / schema), nullptr, false);
    if (!j.is_discarded()) CollectKeys(j, &keys);
  }
  for (const char* k : {"apiVersion",
                        "kind",
                        "metadata",
                        "spec",
                        "status",
                        "JobSet",
                        "Job",
                        "Framework",
                        "jobset.x-k8s.io/v1alpha2",
                        "batch.volcano.sh/v1alpha1",
                        "frameworkcontroller.microsoft.com/v1",
                        "AdmissionReview",
                        "admission.k8s.io/v1",
                        "admission.k8s.io/v1beta1",
                        "request",
                        "object",
                        "oldObject",
                        "operation",
                        "CREATE",
                        "UPDATE",
                        "uid",
                        "dryRun"}) {
    keys.insert(k);
  }
  std::string dict = "# Generated by make_seeds from schemas/ (docs/fuzzing.md).\n";
  int n = 0;
  for (const std::string& k : keys) dict += "k" + std::to_string(n++) + "=" + DictEntry(k) + "\n";
  for (const char* t :
       {"---\n", ": ", "- ", "&a ", "*a", "<<: ", "!!str ",  "|\n",  ">-\n", "{",
        "}",     "[",  "]",  "\"",  "'",  "#",    "\\u0000", "null", "true", "1e9"}) {
    dict += "t" + std::to_string(n++) + "=" + DictEntry(t) + "\n";
  }
  Write(out / "schema.dict", dict);
  std::cout << "make_seeds: wrote " << written << " files to " << out.string() << "\n";
  return 0;
}

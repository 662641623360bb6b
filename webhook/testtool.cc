// jobset-webhook-testtool: helpers for the webhook's integration tests (not shipped).
//
//   objects PATH...        one JSON line per JobSet in the manifests:
//                          {"file", "document", "object"} (YAML read by the lint loader)
//   default                stdin: an object; prints {"crd": <CRD defaults applied>,
//                          "webhook": <CRD + mutating-webhook defaults>, "ops": N}
//   verdict                stdin: {"operation", "object", "oldObject"?}; prints the core's
//                          AdmissionResponse for it: {"allowed", "code", "message", "warnings"}
//   (each with --volcano: Volcano batch.volcano.sh/v1alpha1 Jobs instead of JobSets)
//   bench                  times POSTs over one kept-alive TLS connection (httplib::SSLClient)
#include <httplib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "validation/core/json_node.h"
#include "validation/core/loader.h"
#include "validation/core/patch.h"
#include "validation/lint/kinds.h"
#include "validation/schema/schema.h"
#include "webhook/admission_handler.h"

namespace jobset::webhook {
namespace {

using Json = nlohmann::ordered_json;

std::string ReadStdin() {
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

bool ReadJson(const std::string& text, Node* out) {
  std::string error;
  if (!ParseJson(text, JsonParseLimits{}, out, &error)) {
    std::cerr << "error: " << error << "\n";
    return false;
  }
  return true;
}

int Objects(const std::vector<std::string>& paths, const KindHandler& kind) {
  std::vector<std::string> files;
  std::string error;
  if (!ExpandPaths(paths, true, &files, &error)) {
    std::cerr << "error: " << error << "\n";
    return 2;
  }
  for (const std::string& path : files) {
    SourceFile source;
    if (!LoadFile(path, LoadLimits{}, &source, &error)) {
      std::cerr << "error: " << error << "\n";
      return 2;
    }
    for (const Document& doc : source.documents) {
      if (!doc.parsed) continue;
      std::vector<const Node*> objects;
      const Node& root = doc.root;
      if (root.is_map() && root.StringOr("kind") == "List") {
        if (const Node* items = root.Find("items"); items && items->is_seq()) {
          for (const Node& item : items->items) objects.push_back(&item);
        }
      } else {
        objects.push_back(&root);
      }
      for (const Node* object : objects) {
        if (!object->is_map() || FindKindHandler(*object) != &kind) continue;
        std::cout << "{\"file\":" << NodeToJsonText(Node::String(path))
                  << ",\"document\":" << doc.index << ",\"object\":" << NodeToJsonText(*object)
                  << "}\n";
      }
    }
  }
  return 0;
}

int Default(const KindHandler& kind) {
  Node object;
  if (!ReadJson(ReadStdin(), &object)) return 2;
  std::vector<PatchOp> ops;
  kind.crd_defaults(&object, &ops);
  Node crd = object;
  ops.clear();
  kind.webhook_defaults(&object, &ops);
  std::cout << "{\"crd\":" << NodeToJsonText(crd) << ",\"webhook\":" << NodeToJsonText(object)
            << ",\"ops\":" << ops.size() << "}\n";
  return 0;
}

int Verdict(const std::string& gates_text, const KindHandler& kind) {
  Node input;
  if (!ReadJson(ReadStdin(), &input)) return 2;
  AdmissionOptions options;
  std::string error;
  if (!ParseFeatureGates(gates_text, &options.lint.gates, &error)) {
    std::cerr << "error: " << error << "\n";
    return 2;
  }
  options.lint.schema = BuiltinJobSetSchema();
  AdmissionRequest request;
  request.api_version = kAdmissionV1;
  request.uid = "testtool";
  request.kind = {std::string(ApiGroupOf(kind)), std::string(ServedVersionOf(kind)),
                  std::string(kind.kind)};
  request.operation = std::string(input.StringOr("operation", "CREATE"));
  if (Node* o = input.Find("object")) request.object = *o;
  if (Node* o = input.Find("oldObject")) request.old_object = *o;
  AdmissionResponse r = KindAdmissions()[static_cast<size_t>(kind.id)].validate(&request, options);
  Json out = {{"allowed", r.allowed},
              {"code", r.status ? r.status->code : 0},
              {"message", r.status ? r.status->message : ""},
              {"warnings", r.warnings}};
  std::cout << out.dump() << "\n";
  return 0;
}

struct BenchFlags {
  std::string host = "127.0.0.1";
  int port = 0;
  std::string ca, cert, key, path, body_file;
  int requests = 2000;
  int warmup = 100;
};

int Bench(const BenchFlags& f) {
  std::ifstream in(f.body_file, std::ios::binary);
  std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::unique_ptr<httplib::SSLClient> client =
      f.cert.empty() ? std::make_unique<httplib::SSLClient>(f.host, f.port)
                     : std::make_unique<httplib::SSLClient>(f.host, f.port, f.cert, f.key);
  client->set_ca_cert_path(f.ca.c_str());
  client->enable_server_certificate_verification(true);
  client->set_keep_alive(true);
  client->set_tcp_nodelay(true);
  std::vector<double> micros;
  micros.reserve(f.requests);
  auto begin = std::chrono::steady_clock::now();
  for (int i = 0; i < f.warmup + f.requests; ++i) {
    if (i == f.warmup) begin = std::chrono::steady_clock::now();
    auto start = std::chrono::steady_clock::now();
    auto res = client->Post(f.path.c_str(), body, "application/json");
    auto end = std::chrono::steady_clock::now();
    if (!res || res->status != 200) {
      std::cerr << "error: request " << i << " failed: "
                << (res ? std::to_string(res->status) : httplib::to_string(res.error())) << "\n";
      return 1;
    }
    if (i >= f.warmup) {
      micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    }
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::sort(micros.begin(), micros.end());
  auto pct = [&](double p) {
    return micros[std::min(micros.size() - 1, static_cast<size_t>(p * micros.size()))];
  };
  double sum = 0;
  for (double m : micros) sum += m;
  Json out = {{"requests", micros.size()},
              {"mean_us", sum / micros.size()},
              {"p50_us", pct(0.50)},
              {"p90_us", pct(0.90)},
              {"p99_us", pct(0.99)},
              {"max_us", micros.back()},
              {"requests_per_second", micros.size() / total}};
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace
}  // namespace jobset::webhook

int main(int argc, char** argv) {
  using namespace jobset::webhook;  // NOLINT(build/namespaces): a small tool.
  CLI::App app{"jobset-webhook-testtool: helpers for the webhook's integration tests"};
  app.require_subcommand(1);
  std::vector<std::string> paths;
  auto* objects = app.add_subcommand("objects", "JobSets of manifests as JSON lines");
  objects->add_option("paths", paths)->required();
  bool volcano = false;
  objects->add_flag("--volcano", volcano);
  auto* defaults = app.add_subcommand("default", "the core's defaulting of an object (stdin)");
  defaults->add_flag("--volcano", volcano);
  std::string gates;
  auto* verdict = app.add_subcommand("verdict", "the core's admission verdict (stdin)");
  verdict->add_option("--feature-gates", gates);
  verdict->add_flag("--volcano", volcano);
  BenchFlags bench_flags;
  auto* bench = app.add_subcommand("bench", "time POSTs over one kept-alive TLS connection");
  bench->add_option("--host", bench_flags.host);
  bench->add_option("--port", bench_flags.port)->required();
  bench->add_option("--cacert", bench_flags.ca)->required();
  bench->add_option("--cert", bench_flags.cert);
  bench->add_option("--key", bench_flags.key);
  bench->add_option("--path", bench_flags.path)->required();
  bench->add_option("--body", bench_flags.body_file)->required();
  bench->add_option("-n", bench_flags.requests);
  bench->add_option("--warmup", bench_flags.warmup);
  CLI11_PARSE(app, argc, argv);
  const jobset::KindHandler& kind =
      jobset::FindKind(volcano ? jobset::KindId::kVolcanoJob : jobset::KindId::kJobSet);
  if (*objects) return Objects(paths, kind);
  if (*defaults) return Default(kind);
  if (*verdict) return Verdict(gates, kind);
  if (*bench) return Bench(bench_flags);
  return 2;
}

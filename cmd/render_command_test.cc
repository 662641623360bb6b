#include "cmd/render_command.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/corpus.h"
#include "validation/core/json_node.h"
#include "validation/core/loader.h"
#include "validation/core/yaml_emit.h"
#include "validation/lint/kinds.h"

namespace jobset {

namespace {

namespace fs = std::filesystem;

struct Run {
  int status;
  std::string out, err;
};

Run Render(std::vector<std::string> paths, std::string output = "yaml", std::string only = "",
           int64_t restarts = 0) {
  RenderFlags flags{std::move(paths), std::move(output), std::move(only), restarts};
  std::ostringstream out, err;
  int status = RunRender(flags, out, err);
  return {status, out.str(), err.str()};
}

std::string Temp(const std::string& name, const std::string& text) {
  fs::path p = fs::temp_directory_path() / ("render_test_" + name);
  std::ofstream(p) << text;
  return p.string();
}

// Renders every JobSet, Volcano Job and Framework of the files under `dirs`, each object on its
// own, and the whole output read back; returns the objects rendered.
int RenderAll(const std::vector<std::string>& dirs) {
  std::vector<std::string> files;
  std::string error;
  REQUIRE(ExpandPaths(dirs, true, &files, &error));
  int objects = 0;
  for (const std::string& path : files) {
    SourceFile source;
    REQUIRE(LoadFile(path, LoadLimits{}, &source, &error));
    for (const Document& doc : source.documents) {
      if (!doc.parsed) continue;
      const KindHandler* kind = FindKindHandler(doc.root);
      if (kind == nullptr) continue;
      ChildObjects c = kind->render(doc.root, ChildOptions{});
      INFO(path, ":", doc.start.line);
      CHECK(c.error == "");
      CHECK((!c.objects.empty() || !c.note.empty()));
      for (const Node& child : c.objects) {
        // What we print reads back as what we rendered.
        SourceFile back = ParseSource("back.yaml", NodeToYaml(child));
        REQUIRE(back.documents.size() == 1);
        CHECK(back.documents[0].root == child);
      }
      ++objects;
    }
  }
  return objects;
}

}  // namespace

TEST_CASE("render: a YAML stream of every object, --- between them") {
  std::string file = Temp("one.yaml", R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js}
spec:
  replicatedJobs:
  - name: w
    replicas: 2
    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}
)");
  Run r = Render({file});
  CHECK(r.status == 0);
  CHECK(r.err == "");
  CHECK(r.out.rfind("apiVersion: v1\nkind: Service\n", 0) == 0);
  CHECK(r.out.find("---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: js-w-0\n") !=
        std::string::npos);
  CHECK(r.out.find("  name: js-w-1\n") != std::string::npos);
  SourceFile back = ParseSource("out.yaml", r.out);
  CHECK(back.documents.size() == 3);

  Run json = Render({file}, "json");
  CHECK(json.status == 0);
  Node list;
  std::string error;
  REQUIRE(ParseJson(json.out, {}, &list, &error));
  CHECK(list.StringOr("kind") == "List");
  CHECK(list.StringOr("apiVersion") == "v1");
  CHECK(list.Find("items")->items.size() == 3);

  Run only = Render({file}, "yaml", "w", 1);
  CHECK(only.status == 0);
  CHECK(only.out.find("kind: Service") == std::string::npos);
  CHECK(only.out.find("jobset.sigs.k8s.io/restart-attempt: \"1\"") != std::string::npos);
}

TEST_CASE("render: usage errors name the file, exit 2, print nothing") {
  std::string other = Temp("other.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
  Run r = Render({other});
  CHECK(r.status == 2);
  CHECK(r.out == "");
  CHECK(r.err == "error: " + other +
                     ": no JobSet (jobset.x-k8s.io/v1alpha2), Job (batch.volcano.sh/v1alpha1) or "
                     "Framework (frameworkcontroller.microsoft.com/v1) in this file\n");

  Run missing = Render({"/nonexistent/render.yaml"});
  CHECK(missing.status == 2);
  CHECK(missing.err.find("/nonexistent/render.yaml") != std::string::npos);

  std::string bad = Temp("bad.yaml", "kind: JobSet\napiVersion: [\n");
  CHECK(Render({bad}).status == 2);

  std::string js = Temp("nojob.yaml",
                        "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: "
                        "a}\nspec: {replicatedJobs: [{name: w}]}\n");
  Run no_rjob = Render({js}, "yaml", "x", 0);
  CHECK(no_rjob.status == 2);
  CHECK(no_rjob.out == "");
  CHECK(no_rjob.err == "error: " + js + ":1: JobSet a has no replicated job \"x\" (it has w)\n");
}

TEST_CASE("render: a file whose objects have no children exits 1 and names the file") {
  std::string none = Temp("nospec.yaml",
                          "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: v}\n"
                          "---\napiVersion: frameworkcontroller.microsoft.com/v1\nkind: Framework\n"
                          "metadata: {name: f}\n");
  Run r = Render({none});
  CHECK(r.status == 1);
  CHECK(r.out == "");
  CHECK(r.err == "error: " + none +
                     ": nothing to render: Volcano Job v has no spec: no pods; Framework f has no "
                     "task roles: no pods\n");

  // With a file that renders: still 1, and nothing printed.
  std::string js = Temp("some.yaml",
                        "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: "
                        "a}\nspec: {replicatedJobs: [{name: w, template: {}}]}\n");
  Run both = Render({js, none});
  CHECK(both.status == 1);
  CHECK(both.out == "");
  CHECK(both.err.find("error: " + none + ": nothing to render") == 0);
  CHECK(Render({js}).status == 0);

  // A task of no replicas: nothing, and no note to tell why.
  std::string zero = Temp("zero.yaml",
                          "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: v}\n"
                          "spec: {tasks: [{name: t, replicas: 0, template: {}}]}\n");
  Run z = Render({zero}, "yaml", "t");
  CHECK(z.status == 1);
  CHECK(z.err == "error: " + zero + ": nothing to render\n");
}

TEST_CASE("render: every JobSet, Volcano Job and Framework of examples/ renders") {
  CHECK(RenderAll({JOBSET_SOURCE_DIR "/examples"}) >= 15);
}

TEST_CASE("render: every JobSet, Volcano Job and Framework of the upstream corpus renders" *
          doctest::test_suite("corpus")) {
  const std::string corpus = CorpusOrSkip();
  if (corpus.empty()) return;
  CHECK(RenderAll({corpus + "/jobset/examples"}) > 20);
  CHECK(RenderAll({corpus + "/volcano/examples"}) > 5);
  CHECK(RenderAll({corpus + "/frameworkcontroller/examples"}) > 3);
}

}  // namespace jobset

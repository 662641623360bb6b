#include "validation/framework/children.h"

#include <doctest/doctest.h>

#include <string>

#include "tests/children_test_util.h"

namespace jobset {

namespace {

const char kFramework[] = R"y(apiVersion: frameworkcontroller.microsoft.com/v1
kind: Framework
metadata:
  name: tf
  namespace: ai
spec:
  taskRoles:
  - name: ps
    taskNumber: 1
    task:
      pod:
        metadata:
          labels: {app: tf}
        spec:
          restartPolicy: Never
          containers:
          - name: main
            image: tf
            args: ["--index={{FC_TASK_INDEX}}", "--peer={{FC_FRAMEWORK_NAME}}-worker-0.{{FC_FRAMEWORK_NAMESPACE}}"]
            env: [{name: OWN, value: "$(FC_TASK_INDEX)"}]
  - name: worker
    taskNumber: 2
    task:
      pod:
        spec:
          containers:
          - {name: main, image: tf, terminationMessagePolicy: File}
)y";

}  // namespace

TEST_CASE("framework pods: one Pod per task, named <framework>-<taskrole>-<index>") {
  ChildObjects c = RenderFrameworkPods(ParseOne(kFramework), {});
  REQUIRE(c.error.empty());
  REQUIRE(c.objects.size() == 3);
  CHECK(Text(c.objects[0], {"metadata", "name"}) == "tf-ps-0");
  CHECK(Text(c.objects[1], {"metadata", "name"}) == "tf-worker-0");
  CHECK(Text(c.objects[2], {"metadata", "name"}) == "tf-worker-1");
  const Node* owners = At(c.objects[2], {"metadata", "ownerReferences"});
  REQUIRE((owners && owners->items.size() == 1));
  CHECK(owners->items[0].StringOr("kind") == "ConfigMap");
  CHECK(owners->items[0].StringOr("name") == "tf-attempt");
}

TEST_CASE("framework pods: placeholders, annotations, labels, env, terminationMessagePolicy") {
  ChildObjects c = RenderFrameworkPods(ParseOne(kFramework), {});
  REQUIRE(c.objects.size() == 3);
  const Node& ps = c.objects[0];
  const Node& main = At(ps, {"spec", "containers"})->items[0];
  CHECK(main.Find("args")->items[0].text == "--index=0");
  CHECK(main.Find("args")->items[1].text == "--peer=tf-worker-0.ai");
  CHECK(Text(ps, {"metadata", "annotations", "FC_TASKROLE_NAME"}) == "ps");
  CHECK(Text(ps, {"metadata", "annotations", "FC_CONFIGMAP_NAME"}) == "tf-attempt");
  CHECK(Text(ps, {"metadata", "annotations", "FC_POD_NAME"}) == "tf-ps-0");
  CHECK(Text(ps, {"metadata", "annotations", "FC_FRAMEWORK_ATTEMPT_ID"}) == "0");
  CHECK(At(ps, {"metadata", "annotations"})->entries.size() == 13);
  CHECK(Text(ps, {"metadata", "labels", "app"}) == "tf");
  CHECK(Text(ps, {"metadata", "labels", "FC_TASK_INDEX"}) == "0");
  const Node* env = main.Find("env");
  REQUIRE((env && env->items.size() == 16));
  CHECK(env->items[0].StringOr("name") == "FC_FRAMEWORK_NAMESPACE");
  CHECK(env->items[13].StringOr("name") == "FC_POD_UID");
  CHECK(Text(env->items[13], {"valueFrom", "fieldRef", "fieldPath"}) == "metadata.uid");
  CHECK(env->items[14].StringOr("value") == "0_$(FC_POD_UID)");
  CHECK(env->items[15].StringOr("name") == "OWN");  // the container's own env comes last
  CHECK(main.StringOr("terminationMessagePolicy") == "FallbackToLogsOnError");
  const Node& worker = At(c.objects[1], {"spec", "containers"})->items[0];
  CHECK(worker.StringOr("terminationMessagePolicy") == "File");
}

TEST_CASE("framework pods: --restarts, --task, bad input") {
  ChildObjects r = RenderFrameworkPods(ParseOne(kFramework), {"worker", 4});
  REQUIRE(r.objects.size() == 2);
  CHECK(Text(r.objects[1], {"metadata", "annotations", "FC_FRAMEWORK_ATTEMPT_ID"}) == "4");
  CHECK(Text(r.objects[1], {"metadata", "annotations", "FC_FRAMEWORK_ATTEMPT_INSTANCE_UID"}) ==
        std::string("4_") + kPlaceholderUid);
  CHECK(Text(r.objects[1], {"metadata", "annotations", "FC_TASK_ATTEMPT_ID"}) == "0");
  CHECK(RenderFrameworkPods(ParseOne(kFramework), {"chief", 0}).error ==
        "Framework tf has no task role \"chief\" (it has ps, worker)");
  ChildObjects none = RenderFrameworkPods(ParseOne("kind: Framework\nmetadata: {name: x}\n"), {});
  CHECK(none.error.empty());
  CHECK(none.objects.empty());
  CHECK(none.note == "Framework x has no task roles: no pods");
  CHECK_FALSE(RenderFrameworkPods(ParseOne("kind: Framework\n"), {}).error.empty());
  ChildObjects odd = RenderFrameworkPods(
      ParseOne(
          "kind: Framework\nmetadata: {name: x}\nspec: {taskRoles: [1, {name: a, taskNumber: "
          "1, task: {pod: {metadata: {ownerReferences: 1}, spec: {containers: [1, {}]}}}}]}\n"),
      {});
  CHECK(odd.error.empty());
  CHECK(odd.objects.size() == 1);
}

}  // namespace jobset

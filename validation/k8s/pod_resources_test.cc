// Tests of the container resource checks (pod_resources.h), through ValidatePodTemplateSpec.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/k8s/pod_template_test_util.h"

namespace jobset {
namespace {

TEST_CASE("pod resources: each check rejects what upstream rejects and accepts its twin") {
  CheckCases({
      {"TestValidateContainers (unsupported resource name)",
       "{containers: [{name: a, image: x, resources: {limits: {gpu: 1}}}]}",
       {"[child/resource-name] spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": "
        "must be a standard resource type or fully qualified",
        "[child/resource-name] spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": "
        "must be a standard resource for containers"},
       "{containers: [{name: a, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]}"},
      {"TestValidateResourceRequirements (not an extended resource name)",
       "{containers: [{name: a, image: x, resources: {limits: {requests.example.com/foo: 1}}}]}",
       {"[child/resource-name] spec.containers[0].resources.limits[requests.example.com/foo]: "
        "Invalid value: \"requests.example.com/foo\": doesn't follow extended resource name "
        "standard"},
       "{containers: [{name: a, image: x, resources: {limits: {example.com/foo: 1}}}]}"},
      {"TestValidateContainers (negative request)",
       "{containers: [{name: a, image: x, resources: {requests: {cpu: '-1'}}}]}",
       {"[child/resource-quantity] spec.containers[0].resources.requests[cpu]: Invalid value: "
        "\"-1\": must be greater than or equal to 0"},
       "{containers: [{name: a, image: x, resources: {requests: {cpu: '1'}}}]}"},
      {"TestValidateResourceRequirements (fractional extended resource)",
       "{containers: [{name: a, image: x, resources: {limits: {example.com/foo: 500m}}}]}",
       {"[child/resource-quantity] spec.containers[0].resources.limits[example.com/foo]: Invalid "
        "value: \"500m\": must be an integer"},
       "{containers: [{name: a, image: x, resources: {limits: {example.com/foo: 1}}}]}"},
      {"TestValidateResourceRequirements (hugepages not a multiple of the page size)",
       "{containers: [{name: a, image: x, resources: {limits: {hugepages-2Mi: 3Mi, memory: "
       "1Gi}}}]}",
       {"[child/resource-quantity] spec.containers[0].resources.limits[hugepages-2Mi]: Invalid "
        "value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi"},
       "{containers: [{name: a, image: x, resources: {limits: {hugepages-2Mi: 4Mi, memory: "
       "1Gi}}}]}"},
      {"TestValidateContainers (request above limit)",
       "{containers: [{name: a, image: x, resources: {limits: {cpu: 1}, requests: {cpu: 2}}}]}",
       {"[child/resource-limit] spec.containers[0].resources.requests: Invalid value: \"2\": "
        "must be less than or equal to cpu limit of 1"},
       "{containers: [{name: a, image: x, resources: {limits: {cpu: 1}, requests: {cpu: "
       "500m}}}]}"},
      {"TestValidateContainers (request above limit, canonical quantities)",
       "{containers: [{name: a, image: x, resources: {limits: {memory: 1024Mi}, requests: "
       "{memory: 1.5Gi}}}]}",
       {"[child/resource-limit] spec.containers[0].resources.requests: Invalid value: "
        "\"1536Mi\": must be less than or equal to memory limit of 1Gi"},
       "{containers: [{name: a, image: x, resources: {limits: {memory: 1024Mi}, requests: "
       "{memory: 1Gi}}}]}"},
      {"TestValidateResourceRequirements (extended request not equal to its limit)",
       "{containers: [{name: a, image: x, resources: {limits: {nvidia.com/gpu: 2}, requests: "
       "{nvidia.com/gpu: 1}}}]}",
       {"[child/resource-limit] spec.containers[0].resources.requests: Invalid value: \"1\": "
        "must be equal to nvidia.com/gpu limit of 2"},
       "{containers: [{name: a, image: x, resources: {limits: {nvidia.com/gpu: 2}, requests: "
       "{nvidia.com/gpu: 2}}}]}"},
      {"TestValidateResourceRequirements (extended request without limit)",
       "{containers: [{name: a, image: x, resources: {requests: {nvidia.com/gpu: 1}}}]}",
       {"[child/resource-limit] spec.containers[0].resources.limits: Required value: Limit must "
        "be set for non overcommitable resources"},
       "{containers: [{name: a, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]}"},
      {"TestValidateResourceRequirements (hugepages without cpu or memory)",
       "{containers: [{name: a, image: x, resources: {limits: {hugepages-2Mi: 2Mi}}}]}",
       {"[child/resource-limit] spec.containers[0].resources: Forbidden: HugePages require cpu "
        "or memory"},
       "{containers: [{name: a, image: x, resources: {limits: {hugepages-2Mi: 2Mi, cpu: 1}}}]}"},
      // Probes and lifecycle handlers (validateProbe, validateHandler and its actions).
  });
}

TEST_CASE("pod template: resources point at the offending entry of the map") {
  std::vector<FieldError> errs = ValidatePodTemplateSpec(
      Parse("spec: {containers: [{name: a, image: x, resources: {limits: {cpu: 1}, requests: "
            "{cpu: 2}}}]}"),
      {});
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].path == "spec.containers[0].resources.requests");
  CHECK(errs[0].Where() == "spec.containers[0].resources.requests[cpu]");
}

}  // namespace
}  // namespace jobset

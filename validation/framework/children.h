// The Pods FrameworkController creates for a Framework (microsoft/frameworkcontroller@d6e70787,
// pkg/apis/frameworkcontroller/v1/funcs.go: NewPod, GetPodName, GetConfigMapName; constants.go).
#pragma once

#include "validation/core/child_objects.h"
#include "validation/core/node.h"

namespace jobset {

/// The Pods of `framework`, `<framework>-<taskrole>-<index>` for every task role and task index
/// in order (FrameworkController has no defaulting webhook: the object is read as written).
///
/// Each Pod: the task role's `task.pod` with the placeholders {{FC_FRAMEWORK_NAMESPACE}},
/// {{FC_FRAMEWORK_NAME}}, {{FC_TASKROLE_NAME}}, {{FC_TASK_INDEX}}, {{FC_CONFIGMAP_NAME}} and
/// {{FC_POD_NAME}} replaced in every key and string; its name and namespace set; a controller
/// owner reference to the attempt's ConfigMap `<framework>-attempt` appended; the 13 FC_*
/// annotations; the labels FC_FRAMEWORK_NAME, FC_TASKROLE_NAME, FC_TASK_INDEX; the 15
/// predefined FC_* environment variables prepended to every (init)container's env; an empty
/// terminationMessagePolicy made FallbackToLogsOnError. Upstream decodes the template into a
/// Kubernetes 1.16 PodTemplateSpec, dropping newer fields: here every field is kept.
///
/// Values only the cluster knows: every uid (Framework, ConfigMap, task role and task
/// instances) is kPlaceholderUid. `options.restarts` is the framework attempt id (its tasks'
/// attempt ids start again at 0); `options.only` renders one task role.
ChildObjects RenderFrameworkPods(const Node& framework, const ChildOptions& options);

}  // namespace jobset

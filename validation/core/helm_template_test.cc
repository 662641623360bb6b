#include "validation/core/helm_template.h"

#include <doctest/doctest.h>

namespace jobset {

TEST_CASE("helm: template actions are found, other tools' placeholders are not") {
  Mark m =
      FindHelmTemplateAction("apiVersion: v1\nkind: Job\nmetadata:\n  name: {{ .Release.Name }}\n");
  CHECK(m.line == 4);
  CHECK(m.column == 9);
  CHECK(FindHelmTemplateAction("{{- if .Values.enabled }}\nkind: JobSet\n{{- end }}\n").line == 1);
  CHECK(FindHelmTemplateAction("x: {{ include \"chart.labels\" . | nindent 4 }}").known());
  CHECK(FindHelmTemplateAction("{{/* a comment */}}").known());
  CHECK(FindHelmTemplateAction("x: {{ $name }}").known());
  CHECK(FindHelmTemplateAction("{{end}}").known());
  // Argo workflow parameters, FrameworkController placeholders, GitHub Actions expressions.
  CHECK_FALSE(FindHelmTemplateAction("name: \"{{workflow.name}}\"\n").known());
  CHECK_FALSE(
      FindHelmTemplateAction("hostname: \"{{FC_TASKROLE_NAME}}-{{FC_TASK_INDEX}}\"").known());
  CHECK_FALSE(FindHelmTemplateAction("run: echo ${{ github.sha }}").known());
  CHECK_FALSE(FindHelmTemplateAction("x: {{ifname}}").known());
  CHECK_FALSE(FindHelmTemplateAction("x: {{ .unclosed").known());
  CHECK_FALSE(FindHelmTemplateAction("").known());
}

}  // namespace jobset

#!/usr/bin/env bash
# The pre-commit hooks of .pre-commit-hooks.yaml through the real pre-commit, offline: a scratch
# hooks repository holds the file, a scratch project uses it by `repo:` and `rev:` as users do,
# and `git commit` is blocked by a broken JobSet, then passes once it is fixed; YAML that is not
# a JobSet, and Helm templates, pass quietly. Also `pre-commit try-repo`.
# Usage: precommit_test.sh KUBECTL_JOBSET_BINARY SOURCE_DIR. Exit 77 without pre-commit or git.
set -u
bin=$1
src=$2
for tool in pre-commit git; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed"
    exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/home" "$tmp/hooks" "$tmp/project"
ln -s "$bin" "$tmp/bin/kubectl-jobset"
# Nothing of the user's: home, git config, pre-commit's cache.
export PATH="$tmp/bin:$PATH" HOME="$tmp/home" PRE_COMMIT_HOME="$tmp/home/pre-commit-cache"
export XDG_CACHE_HOME="$tmp/home/.cache" GIT_CONFIG_NOSYSTEM=1 NO_COLOR=1 PRE_COMMIT_COLOR=never
unset GIT_DIR GIT_WORK_TREE
git config --global user.name test
git config --global user.email test@example.com
git config --global init.defaultBranch main
# No network is needed (language: system, a file repository): prove it where we can.
offline=()
if unshare -n true 2>/dev/null; then
  offline=(unshare -n)
  echo "running pre-commit without network (unshare -n)"
fi

. "$src/tests/checks.sh"

# The hooks repository: this project's hooks file, committed.
cp "$src/.pre-commit-hooks.yaml" "$tmp/hooks/"
git -C "$tmp/hooks" init -q
git -C "$tmp/hooks" add .pre-commit-hooks.yaml
git -C "$tmp/hooks" commit -q -m hooks
rev=$(git -C "$tmp/hooks" rev-parse HEAD)

cd "$tmp/project" || exit 1
git init -q
cat > .pre-commit-config.yaml <<EOF
repos:
- repo: file://$tmp/hooks
  rev: $rev
  hooks:
  - id: kubectl-jobset-lint
  - id: kubectl-jobset-lint-json
EOF
"${offline[@]}" pre-commit install >/dev/null || bad "pre-commit install"
commit() {  # MESSAGE: commits everything staged with the hook; prints its output
  git add -A
  "${offline[@]}" git commit -q -m "$1" 2>&1
}

# The config itself is YAML but no JobSet: it passes quietly.
if out=$(commit config); then ok; else bad "a commit of non-JobSet YAML was blocked" "$out"; fi

mkdir -p jobs
cp "$src/examples/broken/typos.yaml" jobs/train.yaml
if out=$(commit "broken JobSet"); then
  bad "a broken JobSet was committed" "$out"
else
  ok
  if grep -q 'jobs/train.yaml:[0-9]*:[0-9]*: error: .*\[schema/unknown-field\]' <<<"$out"; then
    ok
  else
    bad "the hook's output names no file:line and rule" "$out"
  fi
  if [ "$(git rev-list --count HEAD)" = 1 ]; then ok; else bad "the broken commit exists"; fi
fi

cp "$src/examples/training-fail-fast.yaml" jobs/train.yaml
if out=$(commit "fixed JobSet"); then ok; else bad "the fixed JobSet was blocked" "$out"; fi
[ "$(git rev-list --count HEAD)" = 2 ] && ok || bad "the fixed commit is missing"

# Other YAML, and a Helm template (not YAML until rendered), pass.
mkdir -p .github/workflows charts/app/templates
printf '%s\n' 'name: ci' 'on: [push]' 'jobs:' '  build:' '    runs-on: ubuntu-latest' \
  '    steps:' '    - run: make test' > .github/workflows/ci.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n' \
  > charts/app/templates/configmap.yaml
if out=$(commit "workflow and chart"); then ok; else bad "other YAML was blocked" "$out"; fi

# The JSON hook.
printf '%s\n' '{"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",' \
  ' "metadata": {"name": "j"}, "spec": {"replicatedJobs": [{"name": "w", "replicas": -1,' \
  '  "template": {"spec": {"template": {"spec": {"restartPolicy": "Never",' \
  '   "containers": [{"name": "c", "image": "busybox"}]}}}}}]}}' > jobs/train.json
if out=$(commit "broken JSON JobSet"); then
  bad "a broken JSON JobSet was committed" "$out"
else
  grep -q 'jobs/train.json.*\[schema/minimum\]' <<<"$out" && ok || bad "JSON hook output" "$out"
fi
git reset -q HEAD jobs/train.json
rm jobs/train.json

# pre-commit try-repo, as a hook author tries the hooks: fails on the broken file, passes on
# the good one.
cp "$src/examples/broken/typos.yaml" broken.yaml
if out=$("${offline[@]}" pre-commit try-repo "$tmp/hooks" kubectl-jobset-lint \
           --files broken.yaml 2>&1); then
  bad "try-repo passed a broken file" "$out"
else
  grep -q 'broken.yaml:.*\[failure-policy/' <<<"$out" && ok || bad "try-repo output" "$out"
fi
if out=$("${offline[@]}" pre-commit try-repo "$tmp/hooks" kubectl-jobset-lint \
           --files jobs/train.yaml 2>&1); then
  ok
else
  bad "try-repo failed a good file" "$out"
fi

finish

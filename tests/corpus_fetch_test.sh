#!/usr/bin/env bash
# Tests tests/fetch_corpus.sh (`make corpus`) without a network: it fetches from small upstream
# repositories made here, laid out as JobSet's, Volcano's and FrameworkController's are, through
# a file:// base URL and a pins file of their own. Skips (77) without git.
#
# Usage: tests/corpus_fetch_test.sh SOURCE_DIR
set -uo pipefail
src=$(cd "$1" && pwd)
command -v git >/dev/null 2>&1 || { echo "SKIP: git is not installed"; exit 77; }
. "$src/tests/checks.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME="$tmp/home" GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com
export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global protocol.file.allow always

# put REPO PATH TEXT: writes a file into the work tree of upstream repository REPO.
put() {
  mkdir -p "$(dirname "$tmp/up/$1/$2")"
  printf '%s\n' "$3" >"$tmp/up/$1/$2"
}
# commit REPO: commits everything; prints the commit id.
commit() {
  git -C "$tmp/up/$1" add -A && git -C "$tmp/up/$1" commit -qm change && git -C "$tmp/up/$1" rev-parse HEAD
}
for r in sigs/jobset vc/volcano ms/fc; do
  mkdir -p "$tmp/up/$r" && git init -q "$tmp/up/$r"
  git -C "$tmp/up/$r" config uploadpack.allowFilter true
  put $r LICENSE "license of $r"
  put $r README.md "not fetched"
done
put sigs/jobset site/static/examples/simple/a.yaml "kind: JobSet # pinned"
put sigs/jobset site/static/examples/simple/b.yml "kind: JobSet"
put sigs/jobset site/static/examples/client-go/main.go "package main"
put sigs/jobset site/static/examples/doc/README.md "# not a manifest"
put sigs/jobset config/samples/s.yaml "kind: JobSet # sample"
put sigs/jobset config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml "kind: CustomResourceDefinition"
put sigs/jobset config/components/crd/bases/other.yaml "not fetched"
put vc/volcano example/job.yaml "apiVersion: batch.volcano.sh/v1alpha1"
put vc/volcano example/argo/step.yaml "manifest: 'apiVersion: batch.volcano.sh/v1alpha1'"
put vc/volcano example/queue.yaml "apiVersion: scheduling.volcano.sh/v1beta1"
put vc/volcano config/crd/volcano/bases/batch.volcano.sh_jobs.yaml "kind: CustomResourceDefinition"
put ms/fc example/framework/basic/f.yaml "kind: Framework"
put ms/fc example/framework/basic/notes.yaml "kind: ConfigMap # mentions kind: Framework"
put ms/fc example/config.yaml "kind: ConfigMap"
js=$(commit sigs/jobset) vc=$(commit vc/volcano) fc=$(commit ms/fc)
# Later upstream work, which the pins do not name.
put sigs/jobset site/static/examples/simple/a.yaml "kind: JobSet # later"
put sigs/jobset site/static/examples/simple/later.yaml "kind: JobSet"
commit sigs/jobset >/dev/null
printf '# test pins\njobset sigs/jobset %s\nvolcano vc/volcano %s\nframeworkcontroller ms/fc %s\n' \
  "$js" "$vc" "$fc" >"$tmp/pins"

fetch() {
  JOBSET_CORPUS_GIT_BASE="file://$tmp/up" JOBSET_CORPUS_PINS="$tmp/pins" \
    "$src/tests/fetch_corpus.sh" "$@" >"$tmp/out" 2>&1
}

# --- A fetch: the layout the tests read, at the pinned commits --------------------------------
if fetch "$tmp/corpus"; then ok; else bad "fetch failed" "$(cat "$tmp/out")"; fi
got=$(cd "$tmp/corpus" 2>/dev/null && find . -type f | LC_ALL=C sort | tr '\n' ' ')
want="./README.md ./frameworkcontroller/LICENSE ./frameworkcontroller/UPSTREAM_COMMIT \
./frameworkcontroller/examples/framework/basic/f.yaml ./jobset/LICENSE ./jobset/UPSTREAM_COMMIT \
./jobset/crd/jobset.x-k8s.io_jobsets.yaml ./jobset/examples/samples/s.yaml \
./jobset/examples/simple/a.yaml ./jobset/examples/simple/b.yml ./volcano/LICENSE \
./volcano/UPSTREAM_COMMIT ./volcano/crd/batch.volcano.sh_jobs.yaml \
./volcano/examples/argo/step.yaml ./volcano/examples/job.yaml "
if [ "$got" = "$want" ]; then ok; else bad "corpus files" "got:  $got
want: $want"; fi
if [ "$(cat "$tmp/corpus/jobset/examples/simple/a.yaml" 2>/dev/null)" = "kind: JobSet # pinned" ]
then ok; else bad "a.yaml is not the pinned commit's"; fi
for p in jobset:$js volcano:$vc frameworkcontroller:$fc; do
  if [ "$(cat "$tmp/corpus/${p%%:*}/UPSTREAM_COMMIT" 2>/dev/null)" = "${p#*:}" ]; then ok
  else bad "${p%%:*}/UPSTREAM_COMMIT"; fi
done
if [ "$(cat "$tmp/corpus/volcano/LICENSE" 2>/dev/null)" = "license of vc/volcano" ]; then ok
else bad "volcano/LICENSE"; fi
# No work folder is left behind.
if [ -z "$(find "$tmp" -maxdepth 1 -name '.corpus-fetch.*')" ]; then ok; else bad "work folder left"; fi

# --- A failed fetch leaves the previous corpus as it was ---------------------------------------
sed -i "s/^volcano .*/volcano vc\/volcano 0123456789abcdef0123456789abcdef01234567/" "$tmp/pins"
if fetch "$tmp/corpus"; then bad "a fetch of an unknown commit succeeded"; else ok; fi
if grep -q "could not fetch 0123456789abcdef0123456789abcdef01234567 from file://$tmp/up/vc/volcano" \
  "$tmp/out"; then ok; else bad "unknown commit message" "$(cat "$tmp/out")"; fi
if [ "$(cat "$tmp/corpus/volcano/UPSTREAM_COMMIT" 2>/dev/null)" = "$vc" ]; then ok
else bad "the previous corpus was not kept"; fi
sed -i "s/^volcano .*/volcano vc\/volcano main/" "$tmp/pins"
if fetch "$tmp/corpus"; then bad "a branch name was taken as a pin"; else ok; fi
if grep -q "'main' is not a full commit id" "$tmp/out"; then ok; else bad "pin message" "$(cat "$tmp/out")"; fi
sed -i "/^volcano /d" "$tmp/pins"
if fetch "$tmp/corpus"; then bad "a pins file without volcano was accepted"; else ok; fi
if grep -q "has no line for volcano" "$tmp/out"; then ok; else bad "missing pin message" "$(cat "$tmp/out")"; fi

# --- The real pins: well formed, and the corpus the tests read is theirs -----------------------
pins="$src/tests/corpus-pins.txt"
for name in jobset volcano frameworkcontroller; do
  commit=$(awk -v n=$name '$1 == n { print $3 }' "$pins")
  if [[ $commit =~ ^[0-9a-f]{40}$ ]]; then ok; else bad "$pins: no full commit for $name"; fi
  corpus=${JOBSET_CORPUS_DIR:-}
  if [ -n "$corpus" ] && [ -f "$corpus/$name/UPSTREAM_COMMIT" ]; then
    if [ "$(cat "$corpus/$name/UPSTREAM_COMMIT")" = "$commit" ]; then ok
    else bad "$name: $pins says $commit, the corpus in JOBSET_CORPUS_DIR is at $(cat "$corpus/$name/UPSTREAM_COMMIT")"; fi
  fi
done
finish

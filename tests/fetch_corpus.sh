#!/bin/sh
# Fetches the upstream corpus some tests read (`make corpus`): the example manifests and CRDs
# of JobSet, Volcano and FrameworkController at the commits tests/corpus-pins.txt names, laid
# out as the tests expect:
#
#   jobset/examples               kubernetes-sigs/jobset site/static/examples and, as samples/,
#                                 config/samples (the YAML files)
#   jobset/crd                    kubernetes-sigs/jobset config/components/crd/bases/
#                                 jobset.x-k8s.io_jobsets.yaml
#   volcano/examples              volcano-sh/volcano example/ (the files holding batch.volcano.sh
#                                 objects; invalid_jobs/ are meant to be rejected)
#   volcano/crd                   volcano-sh/volcano config/crd/volcano/bases/
#                                 batch.volcano.sh_jobs.yaml
#   frameworkcontroller/examples  microsoft/frameworkcontroller example/ (the Frameworks)
#
# with each project's LICENSE and an UPSTREAM_COMMIT file. Only the commit named is fetched
# (shallow, and only the blobs of those paths). The result replaces DEST whole, so a failed
# fetch leaves the previous corpus as it was.
#
# Usage: tests/fetch_corpus.sh [DEST]     (default: corpus/ at the top of the repository,
#                                          where the tests look when JOBSET_CORPUS_DIR is unset)
# Environment:
#   JOBSET_CORPUS_GIT_BASE  where the repositories are, as BASE/OWNER/REPOSITORY
#                           (default https://github.com; a mirror or a file:// URL works too)
#   JOBSET_CORPUS_PINS      the pins file (default tests/corpus-pins.txt beside this script)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-$(dirname "$here")/corpus}
base=${JOBSET_CORPUS_GIT_BASE:-https://github.com}
pins=${JOBSET_CORPUS_PINS:-$here/corpus-pins.txt}

die() {
  echo "fetch_corpus: $*" >&2
  exit 1
}
command -v git >/dev/null 2>&1 || die "git is not installed"
[ -r "$pins" ] || die "cannot read the pins file $pins"

mkdir -p "$(dirname "$dest")"
work=$(mktemp -d "$(dirname "$dest")/.corpus-fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
new="$work/corpus"
mkdir -p "$new"

# pin NAME: "REPOSITORY COMMIT" of project NAME in the pins file.
pin() {
  line=$(awk -v n="$1" '$1 == n { print $2, $3; exit }' "$pins")
  [ -n "$line" ] || die "$pins has no line for $1"
  echo "$line"
}

# checkout NAME REPOSITORY COMMIT PATTERN...: the paths matching the (gitignore-style) patterns
# of REPOSITORY at COMMIT, checked out in $work/src-NAME.
checkout() {
  name=$1 repo=$2 commit=$3
  shift 3
  case $commit in
    *[!0-9a-f]* | "") die "$repo: '$commit' is not a full commit id" ;;
  esac
  [ ${#commit} = 40 ] || die "$repo: '$commit' is not a full commit id"
  src="$work/src-$name"
  git init -q "$src"
  git -C "$src" config core.sparseCheckout true
  printf '%s\n' "$@" >"$src/.git/info/sparse-checkout"
  echo "fetching $base/$repo at $commit"
  git -C "$src" fetch -q --depth 1 --filter=blob:none "$base/$repo" "$commit" ||
    die "could not fetch $commit from $base/$repo"
  git -C "$src" -c advice.detachedHead=false checkout -q "$commit" ||
    die "could not check out $commit of $base/$repo"
  [ "$(git -C "$src" rev-parse HEAD)" = "$commit" ] || die "$repo: HEAD is not $commit"
}

# copy_yaml FROM TO [REGEX]: the .yaml and .yml files under FROM into TO, keeping their
# relative paths; with REGEX (grep -E), only the files holding a line that matches it.
copy_yaml() {
  from=$1 to=$2 regex=${3:-}
  [ -d "$from" ] || die "$from is missing at the pinned commit"
  (cd "$from" && find . -type f \( -name '*.yaml' -o -name '*.yml' \) | LC_ALL=C sort) |
    while IFS= read -r rel; do
      if [ -n "$regex" ] && ! grep -Eq "$regex" "$from/$rel"; then continue; fi
      mkdir -p "$to/$(dirname "$rel")"
      cp "$from/$rel" "$to/$rel"
    done
}

# finish NAME COMMIT: the project's LICENSE and UPSTREAM_COMMIT.
finish() {
  cp "$work/src-$1/LICENSE" "$new/$1/LICENSE"
  echo "$2" >"$new/$1/UPSTREAM_COMMIT"
}

p=$(pin jobset)
set -- $p
checkout jobset "$1" "$2" /LICENSE /site/static/examples/ /config/samples/ \
  /config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml
s="$work/src-jobset"
copy_yaml "$s/site/static/examples" "$new/jobset/examples"
copy_yaml "$s/config/samples" "$new/jobset/examples/samples"
mkdir -p "$new/jobset/crd"
cp "$s/config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml" "$new/jobset/crd/"
finish jobset "$2"

p=$(pin volcano)
set -- $p
checkout volcano "$1" "$2" /LICENSE /example/ /config/crd/volcano/bases/batch.volcano.sh_jobs.yaml
s="$work/src-volcano"
copy_yaml "$s/example" "$new/volcano/examples" 'batch\.volcano\.sh'
mkdir -p "$new/volcano/crd"
cp "$s/config/crd/volcano/bases/batch.volcano.sh_jobs.yaml" "$new/volcano/crd/"
finish volcano "$2"

p=$(pin frameworkcontroller)
set -- $p
checkout frameworkcontroller "$1" "$2" /LICENSE /example/
copy_yaml "$work/src-frameworkcontroller/example" "$new/frameworkcontroller/examples" \
  '^kind: *Framework *$'
finish frameworkcontroller "$2"

cat >"$new/README.md" <<'EOF'
# Upstream corpus

Written by tests/fetch_corpus.sh (`make corpus`); not part of the repository (git-ignored).
Real manifests of other projects, at the commits in each folder's UPSTREAM_COMMIT, under each
folder's LICENSE: the tests check that real, valid configurations get no false errors and that
the built-in schemas agree with the published CRDs. Not every file holds an object we check;
the linter must skip the others quietly.
EOF

rm -rf "$work/old"
if [ -e "$dest" ]; then mv "$dest" "$work/old"; fi
mv "$new" "$dest"
echo "corpus in $dest: $(find "$dest" -type f -name '*.yaml' | wc -l | tr -d ' ') YAML files"

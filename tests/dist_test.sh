#!/usr/bin/env bash
# The release archive: packaging/dist.sh (what `make dist` runs) on the build directory of the
# binary under test, into a temporary folder. Checks the archive's contents, that the binary in
# it runs, that the archive is reproducible, and that the krew manifest rendered next to it is
# complete and points at it as krew would install it.
# Usage: dist_test.sh KUBECTL_JOBSET_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
build=$(dirname "$bin")
for tool in tar gzip sha256sum awk; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed"
    exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
check() {  # NAME COMMAND...: passes when the command succeeds
  local name=$1
  shift
  if "$@" >/dev/null 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $name"
  fi
}

version=$("$bin" version | awk '{print $2}')
case $(uname -m) in x86_64) arch=amd64 ;; aarch64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
name=kubectl-jobset-$version-linux-$arch

# `make dist` runs the script on $(BUILD) into $(DIST).
check "make dist runs packaging/dist.sh" \
  grep -qx "packaging/dist.sh $build $tmp/out" <(make -s -n -C "$src" dist BUILD="$build" \
    DIST="$tmp/out" 2>/dev/null | grep 'dist.sh')

# Without HOMEPAGE (the project has no public home to default to): the archive, but no krew
# manifest with a made-up URL, and a note saying what to set.
env -u HOMEPAGE -u RELEASE_URL "$src/packaging/dist.sh" "$build" "$tmp/nohome" > "$tmp/log" 2>&1
check "without HOMEPAGE, the archive is built" test -f "$tmp/nohome/$name.tar.gz"
check "without HOMEPAGE, no krew manifest" test ! -e "$tmp/nohome/jobset.yaml"
check "without HOMEPAGE, a note says to set it" grep -q "no krew manifest: set HOMEPAGE" "$tmp/log"

# A homepage for the test only (example.com is reserved for examples).
export HOMEPAGE=https://example.com/kubectl-jobset
if ! "$src/packaging/dist.sh" "$build" "$tmp/out" > "$tmp/log" 2>&1; then
  echo "FAIL: packaging/dist.sh"
  cat "$tmp/log"
  echo "0 passed, 1 failed"
  exit 1
fi
tarball=$tmp/out/$name.tar.gz
check "the archive is named $name.tar.gz" test -f "$tarball"
sha=$(sha256sum "$tarball" | cut -d' ' -f1)
check "dist.sh prints the sha256" grep -q "$sha" "$tmp/log"
check "the .sha256 file verifies" bash -c "cd '$tmp/out' && sha256sum -c '$name.tar.gz.sha256'"

# Contents.
tar -tzf "$tarball" | sed 's|/$||' | sort > "$tmp/contents"
want="bin
bin/kubectl-jobset
bin/kubectl_complete-jobset
completions
completions/_kubectl-jobset
completions/kubectl-jobset.bash
completions/kubectl-jobset.fish
completions/kubectl_complete-jobset
LICENSE
README.md"
[ -x "$build/webhook/jobset-webhook" ] && want+=$'\nbin/jobset-webhook'
check "the archive holds the binaries, LICENSE, README.md and completions/" \
  diff <(sort <<<"$want") "$tmp/contents"
mkdir "$tmp/x"
tar -xzf "$tarball" -C "$tmp/x"
check "bin/kubectl-jobset runs: version" \
  grep -qx "kubectl-jobset $version" <("$tmp/x/bin/kubectl-jobset" version)
check "version -o json" \
  grep -qx "{\"version\": \"$version\"}" <("$tmp/x/bin/kubectl-jobset" version -o json)
check "bin/kubectl_complete-jobset completes with the archive's binary" \
  grep -q '^lint' <(PATH="$tmp/x/bin:$PATH" "$tmp/x/bin/kubectl_complete-jobset" li)
check "the binary is stripped, smaller than the build's" \
  test "$(stat -c %s "$tmp/x/bin/kubectl-jobset")" -le "$(stat -c %s "$bin")"
for f in kubectl-jobset.bash _kubectl-jobset kubectl-jobset.fish kubectl_complete-jobset; do
  check "completions/$f is the source's" cmp "$tmp/x/completions/$f" "$src/completions/$f"
done
check "LICENSE is the Apache License 2.0" \
  grep -q 'Apache License' "$tmp/x/LICENSE"
check "LICENSE has the terms, not a pointer" grep -q 'END OF TERMS AND CONDITIONS' "$tmp/x/LICENSE"
check "README.md is the source's" cmp "$tmp/x/README.md" "$src/README.md"

# Reproducible: the same inputs give the same bytes.
"$src/packaging/dist.sh" "$build" "$tmp/again" >/dev/null 2>&1
check "the archive is reproducible" cmp "$tarball" "$tmp/again/$name.tar.gz"

# The krew manifest.
manifest=$tmp/out/jobset.yaml
check "jobset.yaml is rendered next to the archive" test -f "$manifest"
check "no placeholder is left" bash -c "! grep -q '{{' '$manifest'"
check "spec.version is v$version" grep -qx "  version: v$version" "$manifest"
check "the platform's sha256 is the archive's" grep -qx "    sha256: $sha" "$manifest"
check "the platform's uri names the archive" \
  grep -qx "    uri: $HOMEPAGE/releases/download/v$version/$name.tar.gz" "$manifest"
check "homepage is HOMEPAGE" grep -qx "  homepage: $HOMEPAGE" "$manifest"
check "only platforms with an archive are listed" \
  test "$(grep -c '^  - selector:' "$manifest")" = 1
check "shortDescription is one line" grep -qE '^  shortDescription: [^|>].+$' "$manifest"
check "the template keeps every platform and placeholder" \
  grep -q '{{SHA256_LINUX_ARM64}}' "$src/packaging/krew/jobset.yaml"
# The rules krew-index's validation applies, where Python's yaml module is at hand; then the
# install as krew does it: every `files.from` exists in the archive, LICENSE among them, and `bin`
# is an executable among the copied files.
python=""
for p in /usr/bin/python3 python3; do
  if "$p" -c 'import yaml' 2>/dev/null; then python=$p; break; fi
done
if [ -n "$python" ]; then
  check "the manifest passes krew's rules and installs from the archive" "$python" - \
    "$manifest" "$tmp/x" "$sha" <<'EOF'
import os, re, sys, yaml
manifest, root, sha = sys.argv[1:4]
m = yaml.safe_load(open(manifest))
assert m["apiVersion"] == "krew.googlecontainertools.github.com/v1alpha2"
assert m["kind"] == "Plugin"
assert m["metadata"]["name"] == "jobset" == os.path.basename(manifest)[:-5]
spec = m["spec"]
assert re.fullmatch(r"v\d+\.\d+\.\d+", spec["version"])
assert spec["shortDescription"] and "\n" not in spec["shortDescription"].strip()
assert spec["description"].strip() and spec["homepage"].startswith("https://")
assert "kubectl_complete-jobset" in spec["caveats"]
assert spec["platforms"]
for p in spec["platforms"]:
    labels = p["selector"]["matchLabels"]
    assert set(labels) == {"os", "arch"}
    assert p["uri"].endswith(".tar.gz")
    assert re.fullmatch(r"[0-9a-f]{64}", p["sha256"]) and p["sha256"] == sha
    assert p["files"] and all(f["from"] and f["to"] for f in p["files"])
    copied = []
    for f in p["files"]:
        assert os.path.exists(os.path.join(root, f["from"])), f["from"]
        copied.append(os.path.basename(f["from"]) if f["to"] == "." else f["to"])
    assert any(c.lower().startswith("license") for c in copied)
    assert p["bin"] in copied and os.access(os.path.join(root, "bin", p["bin"]), os.X_OK)
EOF
else
  echo "SKIP: no Python with the yaml module (krew manifest rules)"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

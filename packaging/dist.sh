#!/usr/bin/env bash
# Builds the release archive from a build directory:
#   OUT/kubectl-jobset-<version>-<os>-<arch>.tar.gz   bin/kubectl-jobset,
#       bin/kubectl_complete-jobset, bin/jobset-webhook (when built), LICENSE, README.md and
#       completions/, with no top folder
#   OUT/kubectl-jobset-<version>-<os>-<arch>.tar.gz.sha256
#   OUT/jobset.yaml   the krew manifest (packaging/krew/jobset.yaml) filled in for every archive
#                     of this version in OUT; platforms without one are left out. Only with
#                     HOMEPAGE set: krew requires a homepage and download URLs, and the project
#                     has no public home of its own to default to (README: "Releases").
# Usage: packaging/dist.sh BUILD_DIR [OUT_DIR (default dist)]
# Environment: HOMEPAGE, RELEASE_URL (downloads: RELEASE_URL/v<version>/<archive>),
# SOURCE_DATE_EPOCH (file times in the archive; default: the last commit's time).
set -euo pipefail
build=${1:?usage: packaging/dist.sh BUILD_DIR [OUT_DIR]}
out=${2:-dist}
src=$(cd "$(dirname "$0")/.." && pwd)
homepage=${HOMEPAGE:-}
release_url=${RELEASE_URL:-${homepage:+$homepage/releases/download}}

bin=$build/kubectl-jobset
[ -x "$bin" ] || { echo "dist: $bin is not built" >&2; exit 1; }
version=$("$bin" version | awk '{print $2}')
[ -n "$version" ] || { echo "dist: $bin version printed nothing" >&2; exit 1; }
os=$(uname -s | tr '[:upper:]' '[:lower:]')
# Go's names, as krew's selectors use them.
case $(uname -m) in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) arch=$(uname -m) ;;
esac
name=kubectl-jobset-$version-$os-$arch
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$src" log -1 --format=%ct 2>/dev/null || echo 0)
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/completions"
# Release binaries without debug information.
install_binary() {
  if command -v strip >/dev/null 2>&1; then
    strip --strip-unneeded -o "$2" "$1"
  else
    cp "$1" "$2"
  fi
  chmod 755 "$2"
}
install_binary "$bin" "$stage/bin/kubectl-jobset"
install -m 755 "$src/completions/kubectl_complete-jobset" "$stage/bin/"
if [ -x "$build/webhook/jobset-webhook" ]; then
  install_binary "$build/webhook/jobset-webhook" "$stage/bin/jobset-webhook"
fi
install -m 644 "$src/LICENSE" "$src/README.md" "$stage/"
for f in kubectl-jobset.bash _kubectl-jobset kubectl-jobset.fish; do
  install -m 644 "$src/completions/$f" "$stage/completions/"
done
install -m 755 "$src/completions/kubectl_complete-jobset" "$stage/completions/"

mkdir -p "$out"
tarball=$out/$name.tar.gz
# Reproducible: sorted names, fixed owner and times, no gzip time stamp.
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
  -cf - bin completions LICENSE README.md | gzip -9n > "$tarball"
sha=$(sha256sum "$tarball" | cut -d' ' -f1)
echo "$sha  $name.tar.gz" > "$tarball.sha256"

# The krew manifest: every platform with an archive of this version in OUT.
manifest=$out/jobset.yaml
rm -f "$manifest"
if [ -z "$homepage" ]; then
  manifest=""
  echo "note: no krew manifest: set HOMEPAGE (the project's URL; downloads from" \
    "HOMEPAGE/releases/download unless RELEASE_URL is set)" >&2
else {
  echo "# Rendered by packaging/dist.sh from packaging/krew/jobset.yaml for v$version."
  awk -v dir="$out" -v version="$version" '
    /^#/ && !started { next }  # The template'"'"'s own header.
    { started = 1 }
    /^  # platform / {
      platform = $3 "-" $4
      file = dir "/kubectl-jobset-" version "-" platform ".tar.gz.sha256"
      keep = (getline line < file) > 0
      if (keep) { split(line, f, " "); sha = f[1] }
      close(file)
      next
    }
    /^  # end platform/ { platform = ""; next }
    platform != "" && !keep { next }
    platform != "" { gsub(/\{\{SHA256_[A-Z0-9_]+\}\}/, sha) }
    { print }
  ' "$src/packaging/krew/jobset.yaml" |
    sed -e "s|{{VERSION}}|$version|g" -e "s|{{HOMEPAGE}}|$homepage|g" \
        -e "s|{{RELEASE_URL}}|$release_url|g"
} > "$manifest"
fi

# Shared libraries beyond the C and C++ runtimes must be on the target machine too.
if command -v ldd >/dev/null 2>&1; then
  extra=$(ldd "$bin" 2>/dev/null | awk '{print $1}' |
    grep -Ev '^(linux-vdso|/lib64/ld-linux|ld-linux|libc\.|libm\.|libstdc\+\+|libgcc_s)' |
    tr '\n' ' ' || true)
  [ -n "$extra" ] && echo "note: bin/kubectl-jobset needs these shared libraries: $extra" >&2
fi
echo "$tarball"
echo "sha256: $sha"
[ -z "$manifest" ] || echo "krew manifest: $manifest"

#!/usr/bin/env python3
"""docs/rules/README.md's tables of rules are the registry's (`kubectl jobset lint --list-rules`).

The rows of its tables (each below a `| Rule | Severity | Source | Summary |` header) are
generated from `kubectl-jobset lint --list-rules -o json`, one per rule in registry order, the
registry split into one table per section: the first (JobSet, with the input and schema rules
every kind shares), then one from the first rule of each group of SPLITS on (Volcano; then
FrameworkController, with the child rules that follow it in the registry). The prose around the
tables is written by hand. Fails, with a diff, when the checked-in file differs.

Usage: rules_readme_test.py KUBECTL_JOBSET SOURCE_DIR. UPDATE_RULES_README=1 (or the build
target `rules_readme`) rewrites the table instead.
"""
import difflib
import json
import os
import subprocess
import sys

README = "docs/rules/README.md"
HEADER = "| Rule | Severity | Source | Summary |\n|---|---|---|---|\n"
# The groups whose first rule in the registry starts a new table (a section of its kind).
SPLITS = ["volcano/", "framework/"]


def tables(binary):
    """The generated rows of each table, from the binary's registry: a list of texts."""
    listing = subprocess.run([binary, "lint", "--list-rules", "-o", "json"], check=True,
                             capture_output=True, text=True).stdout
    result = [""]
    for r in json.loads(listing)["rules"]:
        if len(result) <= len(SPLITS) and r["id"].startswith(SPLITS[len(result) - 1]):
            result.append("")
        summary = r["summary"].replace("|", "\\|")
        result[-1] += (f"| [`{r['id']}`]({r['id']}.md) | {r['severity']} | {r['source']} | "
                       f"{summary} |\n")
    return result


def regenerate(text, rows):
    """`text` with the rows under each table header replaced by `rows`, in order; None when the
    file has not one table per entry of `rows`."""
    parts = text.split(HEADER)
    if len(parts) != len(rows) + 1:
        return None
    out = parts[0]
    for part, table in zip(parts[1:], rows):
        lines = part.splitlines(True)
        rest = 0
        while rest < len(lines) and lines[rest].startswith("| "):
            rest += 1
        out += HEADER + table + "".join(lines[rest:])
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-2])
        return 2
    path = os.path.join(argv[2], README)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rows = tables(argv[1])
    want = regenerate(text, rows)
    if want is None:
        print(f"FAIL: {README} does not have {len(rows)} tables under the header "
              f"{HEADER.splitlines()[0]!r} (one per section, SPLITS)")
        return 1
    if want == text:
        print(f"OK: {README} lists the registry's rules")
        return 0
    if os.environ.get("UPDATE_RULES_README") == "1":
        with open(path, "w", encoding="utf-8") as f:
            f.write(want)
        print(f"Rewrote {README}")
        return 0
    sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), want.splitlines(True),
                                               README, README + " (generated)"))
    print(f"FAIL: {README} differs from the registry: rerun with UPDATE_RULES_README=1 "
          "(or build the target rules_readme)")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""The README's examples are the program's real output.

Runs every `$ kubectl jobset ...` command of the README's ```console blocks with the built
binary and compares what it prints (standard output and error, as a terminal shows them) with
the lines shown under it. A line `...` stands for any number of lines; a command followed by a
`# comment` shows an excerpt: the lines shown must begin its output. Commands on `jobs/` run on a
fresh copy of tests/fixtures/fix named jobs/, in the order shown (`--fix` changes the files).

Usage: readme_test.py KUBECTL_JOBSET SOURCE_DIR. UPDATE_README=1 rewrites the blocks that are
shown whole (not excerpts, no `...`) with the current output.
"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


def commands(lines):
    """Yields (first line index, end line index, argv, excerpt) for each command of each block."""
    in_block = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            in_block = line.strip() == "```console"
            i += 1
            continue
        if in_block and line.startswith("$ kubectl jobset"):
            start = i
            text = line[2:]
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1] + " " + lines[i].strip()
            excerpt = " #" in text
            argv = shlex.split(text, comments=True)[2:]
            j = i + 1
            while j < len(lines) and not lines[j].startswith("$ ") and not lines[j].startswith("```"):
                j += 1
            yield start, i + 1, j, argv, excerpt
            i = j
            continue
        i += 1


def matches(shown, actual, excerpt):
    """Whether the shown lines are the actual output (`...` matching any lines in between)."""
    if not shown and not actual:
        return True
    if not shown:
        return excerpt
    if shown[0].strip() == "...":
        rest = shown[1:]
        return any(matches(rest, actual[k:], excerpt) for k in range(len(actual) + 1))
    # Trailing spaces (a table's padding, a diff's blank context line) are invisible in a README.
    return (bool(actual) and shown[0].rstrip() == actual[0].rstrip() and
            matches(shown[1:], actual[1:], excerpt))


def main():
    binary, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    update = os.environ.get("UPDATE_README") == "1"
    path = os.path.join(src, "README.md")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    env = dict(os.environ, NO_COLOR="1")
    work = tempfile.mkdtemp(prefix="readme_test.")
    shutil.copytree(os.path.join(src, "tests", "fixtures", "fix"), os.path.join(work, "jobs"))
    passed = failed = 0
    replacements = []
    for start, out_start, end, argv, excerpt in commands(lines):
        cwd = work if any(a.startswith("jobs/") for a in argv) else src
        run = subprocess.run([binary] + argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        actual = run.stdout.rstrip("\n").split("\n") if run.stdout else []
        while end > out_start and lines[end - 1] == "":
            end -= 1  # blank lines before the block's end are layout, not output
        shown = lines[out_start:end]
        if matches(shown, actual, excerpt):
            passed += 1
            continue
        if update and not excerpt and all(s.strip() != "..." for s in shown):
            replacements.append((out_start, end, actual))
            continue
        failed += 1
        print(f"FAIL: README.md:{start + 1}: kubectl jobset {shlex.join(argv)}")
        for line in shown:
            print(f"  - {line}")
        for line in actual:
            print(f"  + {line}")
    shutil.rmtree(work)
    if replacements:
        for out_start, end, actual in reversed(replacements):
            lines[out_start:end] = actual
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        print(f"rewrote {len(replacements)} examples")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

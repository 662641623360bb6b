#!/usr/bin/env python3
"""Checks that #include lines follow the layering of docs/architecture.md.

    validation/core/  <-  validation/schema/, validation/sim/, validation/k8s/
                      <-  validation/jobset/, volcano/, framework/, netcheck/ (never each other)
                      <-  validation/lint/  <-  cmd/, webhook/ (never each other)

A file may include its own folder and any folder of a lower layer, nothing else. A folder under
validation/ that is not in the table below (a file there, or an include of one) is reported too:
a new folder gets its layer here and in docs/architecture.md before it gets code. Tests
(*_test.cc) sit above what they test and are not checked: they drive the pipeline end to end
(validation/lint/) or run the schema engine on the real kinds' defaults. Neither are bench/
and tests/.

Usage: layering_test.py SOURCE_DIR   (exit 1 and one line per wrong include)
       layering_test.py --self-test  (the checker catches an include against the direction)
"""

import os
import re
import sys
import tempfile

# Folder -> layer. Folders of one layer may not include each other.
LAYERS = {
    "validation/core": 0,
    "validation/schema": 1,
    "validation/sim": 1,
    "validation/k8s": 1,
    "validation/jobset": 2,
    "validation/volcano": 2,
    "validation/framework": 2,
    "validation/netcheck": 2,
    "validation/lint": 3,
    "cmd": 4,
    "webhook": 4,
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folder_of(path):
    """The folder of LAYERS that holds `path` (a path relative to the source dir), or None."""
    for folder in sorted(LAYERS, key=len, reverse=True):
        if path.startswith(folder + "/"):
            return folder
    return None


def unknown_folder(path):
    """Why `path` (relative to the source dir) lies in no folder of LAYERS, or "" when it does or
    lies outside validation/ (system headers, third-party includes, bench/, tests/)."""
    if not path.startswith("validation/") or folder_of(path) is not None:
        return ""
    parts = path.split("/")
    folder = "/".join(parts[:-1]) if len(parts) > 2 else "validation"
    return (f"{folder}/ has no layer: add it to LAYERS in tests/layering_test.py and to "
            "docs/architecture.md (Layers, Folders)")


def allowed(source, target):
    """Whether `source` (a file) may include `target` (a path as written in #include)."""
    own, other = folder_of(source), folder_of(target)
    if own is None or other is None or own == other:
        return True
    if source.endswith("_test.cc"):
        return True
    return LAYERS[other] < LAYERS[own]


def check(root):
    """One message per include against the direction, under `root`."""
    problems = []
    for top in ("validation", "cmd", "webhook"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cc")):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                if unknown_folder(rel):
                    problems.append(f"{rel}: {unknown_folder(rel)}")
                with open(full, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if m and unknown_folder(m.group(1)):
                            problems.append(f"{rel}:{number}: includes {m.group(1)}: "
                                            f"{unknown_folder(m.group(1))}")
                        elif m and not allowed(rel, m.group(1)):
                            problems.append(
                                f"{rel}:{number}: includes {m.group(1)}: "
                                f"{folder_of(rel)}/ may not depend on {folder_of(m.group(1))}/ "
                                "(docs/architecture.md, Layers)")
    return sorted(problems)


def self_test():
    """A tree with one include of each wrong kind: each is reported, the right ones are not."""
    files = {
        "validation/core/a.h": '#include "validation/jobset/b.h"\n',  # down-up
        "validation/jobset/b.h": '#include "validation/core/a.h"\n',  # fine
        "validation/jobset/c.cc": '#include "validation/volcano/d.h"\n',  # sibling system
        "validation/core/c_test.cc": '#include "validation/lint/e.h"\n',  # test: fine
        "validation/jobset/f.cc": '#include "validation/lint/e.h"\n',  # up
        "validation/sim/g.cc": '#include "validation/schema/h.h"\n',  # sibling layer
        "cmd/i.cc": '#include "webhook/j.h"\n',  # face to face
        "webhook/k.cc": '#include "validation/lint/e.h"\n',  # fine
        "validation/extra/l.cc": '#include "validation/core/a.h"\n',  # folder with no layer
        "validation/m.h": "",  # a file straight under validation/: no layer either
        "validation/lint/n.cc": '#include "validation/gone/o.h"\n',  # include of one
    }
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(text)
        got = {p.split(":")[0] for p in check(root)}
    want = {"validation/core/a.h", "validation/jobset/c.cc", "validation/jobset/f.cc",
            "validation/sim/g.cc", "cmd/i.cc", "validation/extra/l.cc", "validation/m.h",
            "validation/lint/n.cc"}
    if got != want:
        print(f"self-test: reported {sorted(got)}, expected {sorted(want)}")
        return 1
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-2].strip())
        return 2
    if self_test():
        return 1
    problems = check(argv[1])
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

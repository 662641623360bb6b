#!/usr/bin/env python3
"""The fake kubectl's answers: `get` of jobsets, jobs.batch,pods (by label) and events, from the
dumps named by FAKE_DUMPS (colon-separated), as kubectl prints them (kind: List, or the object);
`get jobsets NAME --watch` prints the object twice."""
import json
import os
import sys

args = sys.argv[1:]
items = []
dumps = os.environ["FAKE_DUMPS"]
# FAKE_LATER: the dumps served once a watch has started (the cluster moved on since).
with open(os.environ["FAKE_LOG"]) as log:
    watching = any("--watch" in line for line in log)
if os.environ.get("FAKE_LATER") and watching:
    dumps = os.environ["FAKE_LATER"]
for path in dumps.split(":"):
    with open(path) as f:
        items += json.load(f)["items"]


def flag(name):
    return args[args.index(name) + 1] if name in args else None


def emit(objs):
    print(json.dumps({"apiVersion": "v1", "kind": "List", "items": objs,
                      "metadata": {"resourceVersion": ""}}, indent=4))


if not args or args[0] != "get" or flag("-o") != "json":
    sys.exit("fake kubectl: unexpected arguments: %s" % " ".join(args))
resource = args[1]
name = args[2] if len(args) > 2 and not args[2].startswith("-") else None
if resource == "jobsets.jobset.x-k8s.io":
    found = [o for o in items if o["kind"] == "JobSet" and (name is None or o["metadata"]["name"] == name)]
    if name is None:
        emit(found)
    elif not found:
        sys.stderr.write('Error from server (NotFound): jobsets.jobset.x-k8s.io "%s" not found\n' % name)
        sys.exit(1)
    else:
        for _ in range(2 if "--watch" in args else 1):
            print(json.dumps(found[0], indent=4))
elif resource == "jobs.batch,pods":
    key, _, value = flag("-l").partition("=")
    emit([o for o in items if o["kind"] in ("Job", "Pod")
          and o["metadata"].get("labels", {}).get(key) == value])
elif resource == "events":
    emit([o for o in items if o["kind"] == "Event"])
else:
    sys.exit("fake kubectl: unknown resource " + resource)

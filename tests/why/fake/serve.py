#!/usr/bin/env python3
"""The fake kubectl's answers: `get` of jobsets, Volcano jobs or frameworks (by name), their
children (jobs.batch,pods or pods, by label) and events, from the
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
WORKLOADS = {"jobsets.jobset.x-k8s.io": ("jobset.x-k8s.io/", "JobSet"),
             "jobs.batch.volcano.sh": ("batch.volcano.sh/", "Job"),
             "frameworks.frameworkcontroller.microsoft.com":
                 ("frameworkcontroller.microsoft.com/", "Framework")}
CHILDREN = {"jobs.batch,pods": ("Job", "Pod"), "pods": ("Pod",)}
if resource in WORKLOADS:
    group, kind = WORKLOADS[resource]
    found = [o for o in items if o["kind"] == kind and o["apiVersion"].startswith(group)
             and (name is None or o["metadata"]["name"] == name)]
    if name is None:
        emit(found)
    elif not found:
        sys.stderr.write('Error from server (NotFound): %s "%s" not found\n' % (resource, name))
        sys.exit(1)
    else:
        for _ in range(2 if "--watch" in args else 1):
            print(json.dumps(found[-1], indent=4))
elif resource in CHILDREN:
    key, _, value = flag("-l").partition("=")
    emit([o for o in items if o["kind"] in CHILDREN[resource]
          and o["metadata"].get("labels", {}).get(key) == value])
elif resource == "events":
    emit([o for o in items if o["kind"] == "Event"])
else:
    sys.exit("fake kubectl: unknown resource " + resource)

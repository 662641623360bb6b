#!/usr/bin/env python3
"""Builds the project's Dockerfile without a Docker engine, then runs the image's entrypoint.

    sudo tests/dockerfile_chroot.py [--work DIR] [--keep] [SRC]

For machines with the Docker client but no engine (like the one this project is developed
on). Each stage starts from a Debian root made by debootstrap (--variant=minbase, the way
Debian's official images are made; bookworm and bookworm-slim both map to it, cached in
WORK/base-SUITE); its instructions run as Docker would run them: RUN in a chroot of the
stage (with /proc, /dev and the host's resolv.conf), COPY from the build context (minus
.dockerignore) or from an earlier stage, ARG, ENV, WORKDIR, USER. Then, in the final stage,
as its USER, ENTRYPOINT + CMD run with a throw-away certificate in /certs, and the script
checks what an operator would: the health port answers, readiness turns true, an
AdmissionReview over TLS gets its verdict, kubectl-jobset runs, no compiler is left in the
runtime stage, and SIGTERM ends the server with status 0.

Needs root (chroot, mounts), debootstrap and openssl, and Debian's mirror (deb.debian.org).
Takes about 6 minutes on 2 cores (the build stage compiles the project), so it is not part of
`make test`; tests/manifests_test.sh checks the Dockerfile's text on every run. Exit status 0
when everything passed.
"""
import argparse
import fnmatch
import http.client
import json
import os
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time

BASES = {"debian:bookworm": "bookworm", "debian:bookworm-slim": "bookworm"}
MIRROR = "http://deb.debian.org/debian"


def log(msg):
    print(f"[dockerfile] {msg}", flush=True)


def fail(msg):
    print(f"FAIL: {msg}", flush=True)
    sys.exit(1)


def instructions(path):
    """The Dockerfile's instructions as (line number, keyword, arguments)."""
    out, buf, start = [], "", 0
    for number, raw in enumerate(open(path), 1):
        line = raw.rstrip("\n")
        if not buf and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if buf and line.lstrip().startswith("#"):
            continue  # Comment lines inside a continued instruction are dropped, as Docker does.
        if not buf:
            start = number
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        buf += line
        keyword, _, args = buf.strip().partition(" ")
        out.append((start, keyword.upper(), args.strip()))
        buf = ""
    if buf:
        fail(f"{path}: the last instruction ends with a line continuation")
    return out


def ignored(rel, patterns):
    """Whether .dockerignore leaves `rel` (a path relative to the context) out."""
    verdict = False
    parts = rel.split("/")
    for pattern in patterns:
        negate = pattern.startswith("!")
        p = pattern[1:] if negate else pattern
        p = p.strip("/")
        # A pattern matches the path or one of its parent directories.
        if any(fnmatch.fnmatchcase("/".join(parts[:i]), p) for i in range(1, len(parts) + 1)):
            verdict = not negate
    return verdict


def copy_context(src, dest, patterns):
    for root, dirs, files in os.walk(src):
        rel_root = os.path.relpath(root, src)
        rel_root = "" if rel_root == "." else rel_root
        dirs[:] = [d for d in dirs if not ignored(os.path.join(rel_root, d), patterns)]
        os.makedirs(os.path.join(dest, rel_root), exist_ok=True)
        for f in files:
            rel = os.path.join(rel_root, f)
            if not ignored(rel, patterns):
                shutil.copy2(os.path.join(src, rel), os.path.join(dest, rel), follow_symlinks=False)


def base_root(work, image):
    suite = BASES.get(image)
    if not suite:
        fail(f"no debootstrap equivalent for base image {image} (known: {', '.join(BASES)})")
    cached = os.path.join(work, f"base-{suite}")
    if not os.path.exists(os.path.join(cached, ".complete")):
        shutil.rmtree(cached, ignore_errors=True)
        log(f"debootstrap {suite} (minbase) into {cached}")
        subprocess.run(["debootstrap", "--variant=minbase", suite, cached, MIRROR], check=True,
                       stdout=subprocess.DEVNULL)
        open(os.path.join(cached, ".complete"), "w").close()
    return cached


class Stage:
    def __init__(self, name, root):
        self.name, self.root = name, root
        self.workdir, self.user, self.env, self.args = "/", "0:0", {}, {}
        self.entrypoint, self.cmd = [], []

    def path(self, p):
        return os.path.join(self.root, p.lstrip("/"))

    def mounted(self):
        return Mounts(self.root)


class Mounts:
    """/proc, /dev and resolv.conf for the commands run in a stage."""

    def __init__(self, root):
        self.root = root

    def __enter__(self):
        shutil.copy("/etc/resolv.conf", os.path.join(self.root, "etc/resolv.conf"))
        subprocess.run(["mount", "-t", "proc", "proc", os.path.join(self.root, "proc")], check=True)
        subprocess.run(["mount", "--bind", "/dev", os.path.join(self.root, "dev")], check=True)
        return self

    def __exit__(self, *exc):
        for sub in ("dev", "proc"):
            subprocess.run(["umount", "-l", os.path.join(self.root, sub)])


def chroot_cmd(stage, argv):
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root"}
    env.update(stage.args)
    env.update(stage.env)
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    script = f"cd {shlex.quote(stage.workdir)} && exec env -i {exports} " + " ".join(
        shlex.quote(a) for a in argv)
    return ["chroot", f"--userspec={stage.user}", stage.root, "/bin/sh", "-c", script]


def build(src, work):
    """Runs every stage; returns the final one."""
    dockerfile = os.path.join(src, "Dockerfile")
    patterns = []
    ignore_file = os.path.join(src, ".dockerignore")
    if os.path.exists(ignore_file):
        patterns = [l.strip() for l in open(ignore_file) if l.strip() and not l.startswith("#")]
    stages, stage, global_args = {}, None, {}
    for number, keyword, args in instructions(dockerfile):
        where = f"Dockerfile:{number}"
        if keyword == "FROM":
            words = args.split()
            image = words[0]
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else str(len(stages))
            root = os.path.join(work, f"stage-{name}")
            shutil.rmtree(root, ignore_errors=True)
            log(f"{where}: FROM {image} as {name}: copying the base root")
            subprocess.run(["cp", "-a", base_root(work, image), root], check=True)
            stage = Stage(name, root)
            stage.args.update(global_args)
            stages[name] = stage
        elif stage is None:
            if keyword == "ARG":
                k, _, v = args.partition("=")
                global_args[k] = v
                continue
            fail(f"{where}: {keyword} before the first FROM")
        elif keyword == "RUN":
            log(f"{where}: RUN {args[:100]}{'...' if len(args) > 100 else ''}")
            with stage.mounted():
                result = subprocess.run(chroot_cmd(stage, ["/bin/sh", "-c", args]))
            if result.returncode != 0:
                fail(f"{where}: RUN exited with {result.returncode}")
        elif keyword == "WORKDIR":
            stage.workdir = os.path.join(stage.workdir, args)
            os.makedirs(stage.path(stage.workdir), exist_ok=True)
        elif keyword == "ARG":
            k, _, v = args.partition("=")
            stage.args[k] = stage.args.get(k, v)
        elif keyword == "ENV":
            k, _, v = args.partition("=")
            stage.env[k] = v
        elif keyword == "USER":
            stage.user = args if ":" in args else f"{args}:{args}"
        elif keyword == "COPY":
            words = args.split()
            origin = None
            if words[0].startswith("--from="):
                origin = stages.get(words[0][len("--from="):])
                if origin is None:
                    fail(f"{where}: COPY from an unknown stage")
                words = words[1:]
            *sources, dest = words
            target = stage.path(dest if dest.startswith("/") else os.path.join(stage.workdir, dest))
            log(f"{where}: COPY {' '.join(sources)} -> {dest}" + (f" (from {origin.name})" if origin else ""))
            for s in sources:
                if origin is None and s == ".":
                    copy_context(src, target, patterns)
                elif origin is None:
                    fail(f"{where}: only 'COPY . DEST' from the context is supported")
                else:
                    os.makedirs(target, exist_ok=True)
                    shutil.copy2(origin.path(s), target)
        elif keyword in ("ENTRYPOINT", "CMD"):
            value = json.loads(args)  # Exec form only: a shell-form entrypoint ignores signals.
            if keyword == "ENTRYPOINT":
                stage.entrypoint = value
            else:
                stage.cmd = value
        elif keyword in ("LABEL", "EXPOSE"):
            pass
        else:
            fail(f"{where}: {keyword} is not supported by this script")
    if stage is None:
        fail("no FROM in the Dockerfile")
    return stage


def make_certs(directory):
    def openssl(*a):
        subprocess.run(["openssl", *a], check=True, capture_output=True)

    os.makedirs(directory, exist_ok=True)
    ca_key, ca = os.path.join(directory, "ca.key"), os.path.join(directory, "ca.crt")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", ca_key, "-out", ca, "-days", "2", "-subj", "/CN=dockerfile-test-ca")
    key, csr, crt = (os.path.join(directory, n) for n in ("tls.key", "tls.csr", "tls.crt"))
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", key, "-out", csr, "-subj", "/CN=localhost")
    ext = os.path.join(directory, "ext.cnf")
    open(ext, "w").write("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
            "-out", crt, "-days", "2", "-extfile", ext)
    return ca


REVIEW = {
    "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
    "request": {
        "uid": "dockerfile-test", "operation": "CREATE",
        "kind": {"group": "jobset.x-k8s.io", "version": "v1alpha2", "kind": "JobSet"},
        "resource": {"group": "jobset.x-k8s.io", "version": "v1alpha2", "resource": "jobsets"},
        "object": {
            "apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
            "metadata": {"name": "js", "namespace": "default"},
            "spec": {"replicatedJobs": [{"name": "w", "replicas": 1, "template": {"spec": {
                "template": {"spec": {"restartPolicy": "Never", "containers": [
                    {"name": "c", "image": "busybox"}]}}}}}]}}}}


def run_image(stage, src, checks):
    """Runs ENTRYPOINT + CMD as the image would, and checks it from outside."""
    cert_dir = stage.path("/certs")
    ca = make_certs(os.path.join(stage.root, "tmp", "ca"))
    shutil.rmtree(cert_dir, ignore_errors=True)
    os.makedirs(cert_dir)
    for f in ("tls.crt", "tls.key"):
        shutil.copy(os.path.join(stage.root, "tmp", "ca", f), cert_dir)
        os.chmod(os.path.join(cert_dir, f), 0o444)
    argv = stage.entrypoint + stage.cmd
    log(f"running {' '.join(argv)} as {stage.user}")
    with stage.mounted():
        proc = subprocess.Popen(chroot_cmd(stage, argv), stderr=subprocess.PIPE, text=True)
        try:
            ready = False
            for _ in range(100):
                time.sleep(0.1)
                try:
                    c = http.client.HTTPConnection("127.0.0.1", 8081, timeout=2)
                    c.request("GET", "/readyz")
                    ready = c.getresponse().status == 200
                    if ready:
                        break
                except OSError:
                    pass
            checks("ready on :8081 /readyz", ready)
            c = http.client.HTTPConnection("127.0.0.1", 8081, timeout=2)
            c.request("GET", "/healthz")
            checks("healthy on :8081 /healthz", c.getresponse().status == 200)
            ctx = ssl.create_default_context(cafile=ca)
            t = http.client.HTTPSConnection("localhost", 9443, context=ctx, timeout=5)
            t.request("POST", "/validate-jobset-x-k8s-io-v1alpha2-jobset", json.dumps(REVIEW),
                      {"Content-Type": "application/json"})
            reply = json.loads(t.getresponse().read())["response"]
            checks("admission over TLS on :9443", reply.get("uid") == "dockerfile-test"
                   and reply.get("allowed") is True, reply)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                _, err = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
        checks("SIGTERM ends it with status 0", proc.returncode == 0, err[-2000:])
        lines = [json.loads(l) for l in err.splitlines() if l.startswith("{")]
        checks("logs one JSON line for the request", any(
            l.get("uid") == "dockerfile-test" for l in lines), err[-2000:])
        example = os.path.join(src, "examples", "training-fail-fast.yaml")
        shutil.copy(example, stage.path("/tmp/example.yaml"))
        os.chmod(stage.path("/tmp/example.yaml"), 0o444)
        lint = subprocess.run(chroot_cmd(stage, ["kubectl-jobset", "lint", "/tmp/example.yaml"]),
                              capture_output=True, text=True)
        checks("kubectl-jobset lint runs in the image", lint.returncode in (0, 1),
               lint.stdout[-1000:] + lint.stderr[-1000:])
    for compiler in ("usr/bin/g++", "usr/bin/cmake", "usr/include/httplib.h"):
        checks(f"no /{compiler} in the runtime stage", not os.path.exists(stage.path(compiler)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", nargs="?", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    parser.add_argument("--work", help="where the roots go (default: a temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep the stage roots")
    a = parser.parse_args()
    if os.geteuid() != 0:
        fail("needs root (chroot and mounts)")
    for tool in ("debootstrap", "openssl", "chroot"):
        if not shutil.which(tool):
            fail(f"{tool} not found (apt-get install {tool})")
    work = a.work or tempfile.mkdtemp(prefix="dockerfile-chroot-")
    os.makedirs(work, exist_ok=True)
    failures = []

    def checks(what, ok, detail=""):
        print(f"{'ok  ' if ok else 'FAIL'} {what}" + ("" if ok else f"\n  | {detail}"), flush=True)
        if not ok:
            failures.append(what)

    start = time.time()
    final = build(a.src, work)
    log(f"built in {time.time() - start:.0f} s; final stage root {final.root}")
    run_image(final, a.src, checks)
    if not a.keep:
        for entry in os.listdir(work):
            if entry.startswith("stage-"):
                shutil.rmtree(os.path.join(work, entry), ignore_errors=True)
    print(f"{'all checks passed' if not failures else f'{len(failures)} failed'}"
          f" ({time.time() - start:.0f} s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

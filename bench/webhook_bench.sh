#!/bin/bash
# Load benchmark of jobset-webhook against nginx, over HTTPS with keep-alive, in one run.
#
#   bench/webhook_bench.sh BUILD_DIR [OUT_DIR]
#
# BUILD_DIR holds webhook/jobset-webhook (and, if built, webhook/jobset-webhook-testtool).
# Results go to OUT_DIR (default bench/out/webhook): results.json, summary.txt, the request and
# response bodies, certificates, server logs. See bench/WEBHOOK.md for the method.
#
# 1. Certificates: a CA and an ECDSA P-256 serving certificate for 127.0.0.1 (cert-manager's
#    key type in manifests/), used by both servers.
# 2. Request: examples/training-fail-fast.yaml as kube-apiserver sends it to a validating
#    webhook on `kubectl apply` (defaults applied, last-applied annotation, managedFields).
# 3. jobset-webhook on free loopback ports; its answer to the request is captured.
# 4. nginx (temporary config: loopback high port, pid/logs/temp in a temp dir, so no root
#    needed) answers the same path with exactly those bytes,
#    with the same certificate, TLS versions, suites and groups, and keep-alive policy.
# 5. Throughput: wrk -t$THREADS -c$CONNECTIONS -d$DURATION, alternating webhook/ceiling/nginx,
#    $ROUNDS rounds; the median of each and the ratio webhook/nginx. "ceiling" is
#    jobset-webhook-noop (built here if missing): the same server answering every request with
#    a fixed review of the same size without reading it, i.e. what cpp-httplib, TLS and the
#    server cost around the handler.
# 6. Latency at a fixed rate: bench/webhook/fixed_rate_client.cc (open loop, like wrk2's -R,
#    which Debian's wrk lacks) sends $RATE req/s for $RATE_DURATION s over $RATE_CONNECTIONS
#    kept-alive connections to each server; p50/p90/p99/p99.9 from each request's due time.
#
# Tunables (environment): ROUNDS=3 DURATION=15s THREADS=2 CONNECTIONS=16 RATE=1000
# RATE_DURATION=15 RATE_WARMUP=2 RATE_CONNECTIONS=8 STAGE=validate|mutate
# MANIFEST=examples/training-fail-fast.yaml
# BASELINE=OTHER_BUILD_DIR: also runs that build's jobset-webhook (the "baseline", e.g. the
# commit before a change) in the same rounds and at the same fixed rate, and reports the
# webhook's rate as a share of it (a change that must not cost speed: at least 0.85).
# BENCH_NICE=-10: run both servers and both load generators at that nice value (root only), so
# that other work on a shared machine disturbs the measurement less; both servers alike.
#
# Needs wrk, nginx, openssl, curl, python3 and (unless BUILD_DIR has fixed_rate_client) g++
# with pkg-config and Debian's libcpp-httplib-dev. Missing tools are installed with apt-get when
# running as root; otherwise the script says what is missing and exits 77.
set -euo pipefail

usage() { echo "usage: $0 BUILD_DIR [OUT_DIR]" >&2; exit 2; }
[ $# -ge 1 ] || usage
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$src/bench/out/webhook}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-15s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-16}
RATE=${RATE:-1000}
RATE_DURATION=${RATE_DURATION:-15}
RATE_WARMUP=${RATE_WARMUP:-2}
RATE_CONNECTIONS=${RATE_CONNECTIONS:-8}
STAGE=${STAGE:-validate}
nice_cmd=()
[ -n "${BENCH_NICE:-}" ] && nice_cmd=(nice -n "$BENCH_NICE")
MANIFEST=${MANIFEST:-$src/examples/training-fail-fast.yaml}
case $STAGE in
  validate) path=/validate-jobset-x-k8s-io-v1alpha2-jobset ;;
  mutate) path=/mutate-jobset-x-k8s-io-v1alpha2-jobset ;;
  *) echo "STAGE must be validate or mutate" >&2; exit 2 ;;
esac

webhook=$build/webhook/jobset-webhook
baseline=""
if [ -n "${BASELINE:-}" ]; then
  baseline=$(cd "$BASELINE" && pwd)/webhook/jobset-webhook
  [ -x "$baseline" ] || { echo "error: $baseline not built" >&2; exit 2; }
fi
testtool=$build/webhook/jobset-webhook-testtool
[ -x "$webhook" ] || { echo "error: $webhook not built (cmake --build $build --target jobset-webhook)" >&2; exit 2; }

# --- tools ------------------------------------------------------------------------------------
export PATH=$PATH:/usr/sbin:/sbin
declare -A package=([wrk]=wrk [nginx]=nginx-light [openssl]=openssl [curl]=curl [python3]=python3)
missing=()
for tool in wrk nginx openssl curl python3; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
client=""
for candidate in "$build/fixed_rate_client" "$build/webhook/fixed_rate_client" "$build/bench/fixed_rate_client"; do
  [ -x "$candidate" ] && client=$candidate && break
done
if [ -z "$client" ] && { ! command -v g++ >/dev/null 2>&1 || ! pkg-config --exists cpp-httplib 2>/dev/null; }; then
  missing+=(g++)
  package[g++]="g++ pkg-config libcpp-httplib-dev libssl-dev"
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    pkgs=""
    for tool in "${missing[@]}"; do pkgs="$pkgs ${package[$tool]}"; done
    echo "installing:$pkgs"
    # shellcheck disable=SC2086 # word splitting intended
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pkgs >/dev/null; then
      apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pkgs >/dev/null
    fi
  else
    echo "SKIP: missing ${missing[*]} (install: apt-get install wrk nginx-light openssl curl python3 g++ pkg-config libcpp-httplib-dev)"
    exit 77
  fi
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/webhook-bench.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

if [ -z "$client" ]; then
  client=$work/fixed_rate_client
  # shellcheck disable=SC2046 # pkg-config output is a list of flags
  g++ -O2 -std=c++20 "$src/bench/webhook/fixed_rate_client.cc" $(pkg-config --cflags --libs cpp-httplib) \
    -lssl -lcrypto -pthread -o "$client"
fi

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# --- 1. certificates -------------------------------------------------------------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
  -subj /CN=webhook-bench-ca -keyout "$work/ca.key" -out "$out/ca.crt" \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost \
  -keyout "$out/tls.key" -out "$work/tls.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$work/tls.ext"
openssl x509 -req -in "$work/tls.csr" -CA "$out/ca.crt" -CAkey "$work/ca.key" -CAcreateserial \
  -days 2 -extfile "$work/tls.ext" -out "$out/tls.crt" 2>/dev/null

# --- 2. the request ----------------------------------------------------------------------------
if [ -x "$testtool" ]; then
  "$testtool" objects "$MANIFEST" | head -n 1 |
    python3 -c 'import json,sys; print(json.dumps(json.loads(sys.stdin.readline())["object"]))' >"$work/raw.json"
  "$testtool" default <"$work/raw.json" |
    python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["webhook"]))' >"$work/defaulted.json"
  defaults="CRD and mutating-webhook defaults applied (jobset-webhook-testtool default)"
elif command -v kubectl >/dev/null 2>&1; then
  kubectl label --local -f "$MANIFEST" bench- -o json >"$work/raw.json"
  cp "$work/raw.json" "$work/defaulted.json"
  defaults="no defaults applied (jobset-webhook-testtool not built)"
else
  python3 -c 'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' "$MANIFEST" >"$work/raw.json"
  cp "$work/raw.json" "$work/defaulted.json"
  defaults="no defaults applied (jobset-webhook-testtool not built)"
fi
[ "$STAGE" = mutate ] && defaults="the object as written (a mutating webhook sees it before defaults)"
python3 "$src/bench/webhook/make_review.py" "$work/raw.json" "$work/defaulted.json" "$STAGE" >"$out/request.json"
request_bytes=$(wc -c <"$out/request.json")

# --- 3. jobset-webhook -------------------------------------------------------------------------
# start_server BINARY LOG: starts it on free loopback ports and waits until it is ready; sets
# server_pid and server_port.
start_server() {
  local health
  server_port=$(free_port)
  health=$(free_port)
  "${nice_cmd[@]}" "$1" --tls-cert-file "$out/tls.crt" --tls-private-key-file "$out/tls.key" \
    --bind-address 127.0.0.1 --port "$server_port" \
    --health-bind-address 127.0.0.1 --health-port "$health" 2>"$2" &
  server_pid=$!
  pids+=("$server_pid")
  for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$health/readyz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fsS "http://127.0.0.1:$health/readyz" >/dev/null ||
    { echo "error: $1 not ready" >&2; cat "$2" >&2; exit 1; }
}
start_server "$webhook" "$out/webhook.log"
wh_pid=$server_pid
wh_port=$server_port

post() {  # post PORT FILE_OUT
  curl -fsS --cacert "$out/ca.crt" -H 'Content-Type: application/json' \
    --data-binary @"$out/request.json" -o "$2" "https://127.0.0.1:$1$path"
}
post "$wh_port" "$out/response.json"
response_bytes=$(wc -c <"$out/response.json")
python3 - "$out/request.json" "$out/response.json" <<'PY'
import json, sys
req = json.load(open(sys.argv[1]))["request"]
res = json.load(open(sys.argv[2]))
r = res.get("response", {})
assert res.get("apiVersion") == "admission.k8s.io/v1" and res.get("kind") == "AdmissionReview", res
assert r.get("uid") == req["uid"], "uid not echoed"
assert r.get("allowed") is True, "the benchmark JobSet is denied: %s" % r.get("status")
PY

# --- 3a. the baseline: the other build's server, on the same request ---------------------------
bl_pid=""
if [ -n "$baseline" ]; then
  start_server "$baseline" "$out/baseline.log"
  bl_pid=$server_pid
  bl_port=$server_port
  post "$bl_port" "$work/baseline-response.json"
  python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["response"]["allowed"] is True, "the baseline denies the request"' \
    "$work/baseline-response.json"
fi

# --- 3b. the ceiling: the same server around a handler that does nothing -----------------------
noop=$build/webhook/jobset-webhook-noop
if [ ! -x "$noop" ] && [ -f "$build/CMakeCache.txt" ]; then
  cmake --build "$build" --target jobset-webhook-noop >/dev/null 2>&1 || true
fi
cl_pid=""
if [ -x "$noop" ]; then
  start_server "$noop" "$out/ceiling.log"
  cl_pid=$server_pid
  cl_port=$server_port
  post "$cl_port" "$work/ceiling-response.json"
  [ "$(wc -c <"$work/ceiling-response.json")" = "$response_bytes" ] ||
    { echo "error: the ceiling server's reply is not $response_bytes bytes" >&2; exit 1; }
else
  echo "note: no $noop; the ceiling is not measured" >&2
fi

# --- 4. nginx --------------------------------------------------------------------------------
ng_port=$(free_port)
mkdir -p "$work/nginx-tmp"
ciphers=$(sed -n '/kTls12Ciphers\[\]/,/;/p' "$src/webhook/tls_context.h" | grep -o '"[^"]*"' | tr -d '"\n')
[ -n "$ciphers" ] || ciphers="ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"
python3 - "$src/bench/webhook/nginx.conf.in" "$out/nginx.conf" "$out/response.json" <<PY
import os, sys
template, dest, body_file = sys.argv[1:4]
body = open(body_file).read()
# nginx quoted strings: backslash and quote need a backslash; "\$" would start a variable.
body = body.replace("\\\\", "\\\\\\\\").replace("'", "\\\\'").replace("\$", "\${dollar}")
subst = {"WORK": "$work", "WORKERS": str(os.cpu_count() or 1), "PORT": "$ng_port",
         "CERT": "$out/tls.crt", "KEY": "$out/tls.key", "CIPHERS": "$ciphers",
         "PATH": "$path", "BODY": body}
text = open(template).read()
for k, v in subst.items():
    text = text.replace("@" + k + "@", v)
open(dest, "w").write(text)
PY
nginx -t -q -c "$out/nginx.conf" -e "$work/nginx-error.log" 2>&1 | grep -v 'could not open error log' >&2 || true
"${nice_cmd[@]}" nginx -c "$out/nginx.conf" -e "$work/nginx-error.log" 2>>"$work/nginx-stderr.log" &
ng_pid=$!
pids+=("$ng_pid")
for _ in $(seq 100); do
  post "$ng_port" "$work/nginx-response.json" 2>/dev/null && break
  sleep 0.1
done
post "$ng_port" "$work/nginx-response.json"
cmp -s "$out/response.json" "$work/nginx-response.json" ||
  { echo "error: nginx does not return the webhook's response byte for byte" >&2; exit 1; }
tls_of() {  # what an OpenSSL client negotiates by default, and when limited to TLS 1.2
  local text text12
  text=$(echo | openssl s_client -connect "127.0.0.1:$1" -CAfile "$out/ca.crt" 2>/dev/null)
  text12=$(echo | openssl s_client -tls1_2 -connect "127.0.0.1:$1" -CAfile "$out/ca.crt" 2>/dev/null)
  printf '%s; %s; TLS 1.2 client: %s' "$(grep -m1 '^New,' <<<"$text" | sed 's/^New, //')" \
    "$(grep -m1 -E '^(Server Temp Key|Negotiated TLS1.3 group)' <<<"$text")" \
    "$(grep -m1 '^New,' <<<"$text12" | sed 's/^New, //')"
}
tls_wh=$(tls_of "$wh_port")
tls_ng=$(tls_of "$ng_port")

# --- helpers -----------------------------------------------------------------------------------
cpu_ticks() {  # total user+system clock ticks of a process and its threads/children
  local total=0 p
  for p in "$@"; do
    [ -r "/proc/$p/stat" ] || continue
    total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat")))
  done
  echo "$total"
}
nginx_pids() { echo "$ng_pid $(pgrep -P "$ng_pid" | tr '\n' ' ')"; }
target_pids() {
  case $1 in webhook) echo "$wh_pid" ;; baseline) echo "$bl_pid" ;; ceiling) echo "$cl_pid" ;; *) nginx_pids ;; esac
}
target_port() {
  case $1 in webhook) echo "$wh_port" ;; baseline) echo "$bl_port" ;; ceiling) echo "$cl_port" ;; *) echo "$ng_port" ;; esac
}
throughput_targets="webhook nginx"
[ -n "$cl_pid" ] && throughput_targets="webhook ceiling nginx"
[ -n "$bl_pid" ] && throughput_targets="$throughput_targets baseline"
rate_targets="webhook nginx"
[ -n "$bl_pid" ] && rate_targets="webhook nginx baseline"
hz=$(getconf CLK_TCK)

cat >"$work/post.lua" <<LUA
local f = assert(io.open("$out/request.json", "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
LUA

versions="$(wrk --version 2>&1 | head -n1 | cut -d' ' -f1-2), $(nginx -v 2>&1 | cut -d' ' -f3), $(openssl version | cut -d' ' -f1-2), $("$webhook" --version)"
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "machine: $machine; load before: $load_before"
echo "versions: $versions"
echo "request: $request_bytes bytes ($defaults), response: $response_bytes bytes, path $path"
echo "TLS webhook: $tls_wh"
echo "TLS nginx:   $tls_ng"

# --- 5. throughput -------------------------------------------------------------------------------
: >"$work/wrk.jsonl"
for round in $(seq "$ROUNDS"); do
  for target in $throughput_targets; do
    # shellcheck disable=SC2046
    before=$(cpu_ticks $(target_pids $target))
    "${nice_cmd[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$work/post.lua" \
      "https://127.0.0.1:$(target_port $target)$path" >"$out/wrk-$target-$round.txt"
    # shellcheck disable=SC2046
    after=$(cpu_ticks $(target_pids $target))
    python3 - "$out/wrk-$target-$round.txt" "$target" "$round" "$((after - before))" "$hz" "$DURATION" >>"$work/wrk.jsonl" <<'PY'
import json, re, sys
text, target, rnd, ticks, hz, dur = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
def unit(v, u):
    return float(v) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[u]
m = re.search(r"Requests/sec:\s*([\d.]+)", text)
rps = float(m.group(1)) if m else 0.0
req = re.search(r"(\d+) requests in", text)
errors = 0
for pat in (r"Non-2xx or 3xx responses:\s*(\d+)",):
    for n in re.findall(pat, text):
        errors += int(n)
sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
if sock:
    errors += sum(int(x) for x in sock.groups())
lat = {p: unit(v, u) for p, v, u in re.findall(r"^\s+(50|75|90|99)%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)}
seconds = float(dur.rstrip("s"))
print(json.dumps({"target": target, "round": rnd, "requests": int(req.group(1)) if req else 0,
                  "rps": rps, "errors": errors, "p50_ms": lat.get("50"), "p99_ms": lat.get("99"),
                  "server_cpu_cores": round(ticks / hz / seconds, 2)}))
PY
    tail -n 1 "$work/wrk.jsonl"
  done
done

# --- 6. latency at a fixed rate ------------------------------------------------------------------
: >"$work/rate.jsonl"
for target in $rate_targets; do
  # shellcheck disable=SC2046
  before=$(cpu_ticks $(target_pids $target))
  t0=$(date +%s.%N)
  "${nice_cmd[@]}" "$client" --label "$target" --port "$(target_port $target)" --cacert "$out/ca.crt" --path "$path" \
    --body "$out/request.json" --expect-body "$out/response.json" --rate "$RATE" \
    --duration "$RATE_DURATION" --warmup "$RATE_WARMUP" --connections "$RATE_CONNECTIONS" \
    >"$work/rate-$target.json" || true
  t1=$(date +%s.%N)
  # shellcheck disable=SC2046
  after=$(cpu_ticks $(target_pids $target))
  python3 - "$work/rate-$target.json" "$((after - before))" "$hz" "$t0" "$t1" \
    "$(awk '/VmRSS/{print $2}' "/proc/$wh_pid/status")" "$(awk '/VmHWM/{print $2}' "/proc/$wh_pid/status")" "$target" >>"$work/rate.jsonl" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ticks, hz, t0, t1 = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
r["server_cpu_cores"] = round(ticks / hz / (t1 - t0), 3)
if sys.argv[8] == "webhook":
    r["webhook_rss_kib"], r["webhook_peak_rss_kib"] = int(sys.argv[6]), int(sys.argv[7])
print(json.dumps(r))
PY
  tail -n 1 "$work/rate.jsonl"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- summary ---------------------------------------------------------------------------------------
python3 - "$work/wrk.jsonl" "$work/rate.jsonl" "$out/results.json" "$out/summary.txt" <<PY
import json, statistics, sys
wrk = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rate = {r["label"]: r for r in (json.loads(l) for l in open(sys.argv[2]) if l.strip())}
def med(target, key):
    vals = [w[key] for w in wrk if w["target"] == target and w[key] is not None]
    return statistics.median(vals) if vals else None
wh, ng, cl = med("webhook", "rps"), med("nginx", "rps"), med("ceiling", "rps")
bl = med("baseline", "rps")
ratio = wh / ng if wh and ng else 0.0
errors = {t: sum(w["errors"] for w in wrk if w["target"] == t) + rate.get(t, {}).get("errors", 1)
          for t in ("webhook", "nginx")}
res = {
    "machine": "$machine", "versions": "$versions", "nice": "${BENCH_NICE:-0}", "load_before": "$load_before", "load_after": "$load_after",
    "path": "$path", "request_bytes": $request_bytes, "response_bytes": $response_bytes,
    "request": "$defaults", "tls_webhook": "$tls_wh", "tls_nginx": "$tls_ng",
    "throughput": {"wrk": "-t$THREADS -c$CONNECTIONS -d$DURATION, keep-alive, $ROUNDS rounds",
                   "rounds": wrk, "webhook_rps_median": wh, "nginx_rps_median": ng,
                   "ratio": round(ratio, 3), "ceiling_rps_median": cl,
                   "ceiling_ratio": round(cl / ng, 3) if cl and ng else None,
                   "webhook_of_ceiling": round(wh / cl, 3) if cl and wh else None,
                   "baseline": "${BASELINE:-}", "baseline_rps_median": bl,
                   "webhook_of_baseline": round(wh / bl, 3) if bl and wh else None},
    "fixed_rate": rate,
    "errors": errors,
}
wr = rate.get("webhook", {})
goals = {
    "ratio >= 0.5": ratio >= 0.5,
    "p99 < 2 ms at $RATE req/s": bool(wr) and wr["latency_us"]["p99"] < 2000,
    "zero errors": errors["webhook"] == 0,
}
if bl:
    goals["webhook >= 0.85 of the baseline"] = bool(wh) and wh / bl >= 0.85
res["goals"] = goals
json.dump(res, open(sys.argv[3], "w"), indent=2)
lines = [
    f"machine: {res['machine']}; load {res['load_before']} -> {res['load_after']}",
    f"request {res['request_bytes']} B, response {res['response_bytes']} B, POST {res['path']}",
    f"throughput (wrk -t$THREADS -c$CONNECTIONS -d$DURATION, median of $ROUNDS): webhook {wh:.0f} req/s, "
    f"nginx {ng:.0f} req/s, ratio {ratio:.2f}",
]
if cl:
    lines.append(f"ceiling (the same server, no-op handler): {cl:.0f} req/s = {cl / ng:.2f} of nginx; "
                 f"the webhook does {wh / cl:.2f} of it")
if bl:
    lines.append(f"baseline (${BASELINE:-}): {bl:.0f} req/s; the webhook does {wh / bl:.3f} of it")
for t in ("webhook", "nginx", "baseline"):
    r = rate.get(t)
    if r:
        l, s = r["latency_us"], r["service_us"]
        lines.append(f"{t} at {r['rate']:.0f} req/s ({r['achieved_rate']:.0f} achieved, {r['measured']} measured, "
                     f"{r['errors']} errors, server CPU {r['server_cpu_cores']:.2f} cores): "
                     f"p50 {l['p50']/1000:.3f} ms, p90 {l['p90']/1000:.3f} ms, p99 {l['p99']/1000:.3f} ms, "
                     f"p99.9 {l['p999']/1000:.3f} ms, max {l['max']/1000:.2f} ms "
                     f"(service time p50 {s['p50']/1000:.3f}, p99 {s['p99']/1000:.3f} ms)")
lines.append("errors: " + ", ".join(f"{k} {v}" for k, v in errors.items()))
lines.append("goals: " + ", ".join(f"{k}: {'met' if v else 'MISSED'}" for k, v in goals.items()))
open(sys.argv[4], "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY

# syntax=docker/dockerfile:1
# jobset-webhook (and kubectl-jobset) image.
#
#   docker build -t kubectl-jobset/jobset-webhook:v0.1.0 .
#
# Two stages: a Debian bookworm build stage with the -dev packages, and a bookworm-slim
# runtime stage with only the shared libraries the binaries link, running as uid/gid 65532.
# For reproducible builds pin both base images by digest (debian:bookworm@sha256:...).

# ---- build ---------------------------------------------------------------------------------
FROM debian:bookworm AS build

# Debian's own packages of every dependency (the same ones the project builds with).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      cmake g++ make pkg-config \
      libyaml-cpp-dev nlohmann-json3-dev libvalijson-dev libcpp-httplib-dev libssl-dev \
      libcli11-dev doctest-dev libre2-dev libmimalloc-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY . .

# Parallel compile jobs; raise on a bigger builder (docker build --build-arg JOBS=8 .).
ARG JOBS=2
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=Release \
 && cmake --build /build -j"${JOBS}" --target jobset-webhook kubectl-jobset \
 && strip /build/webhook/jobset-webhook /build/kubectl-jobset \
 && /build/webhook/jobset-webhook --version \
 && /build/kubectl-jobset --version

# ---- runtime -------------------------------------------------------------------------------
FROM debian:bookworm-slim

# Runtime libraries only (libstdc++6, libgcc-s1 and libc6 are already in the base image).
# yaml-cpp and RE2 are linked from their static archives and kubectl-jobset is fully static
# (CMake's JOBSET_STATIC); libcpp-httplib0.11 is Debian's shared cpp-httplib (it pulls in zlib
# and brotli); libmimalloc2.0 is the webhook's malloc; ca-certificates is not needed to serve,
# but makes the image usable for kubectl-jobset. tests/manifests_test.sh checks this list
# against the built binaries.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libssl3 libcpp-httplib0.11 libmimalloc2.0 ca-certificates \
 && rm -rf /var/lib/apt/lists/*

COPY --from=build /build/webhook/jobset-webhook /build/kubectl-jobset /usr/local/bin/

LABEL org.opencontainers.image.title="jobset-webhook" \
      org.opencontainers.image.description="Admission webhook for JobSets with the verdicts of kubectl-jobset lint" \
      org.opencontainers.image.version="0.1.0"

# HTTPS (admission) and plain-HTTP health/metrics ports.
EXPOSE 9443 8081

# Numeric uid/gid (no passwd entry needed) so that Kubernetes' runAsNonRoot can verify it.
USER 65532:65532

# Kubernetes probes /healthz and /readyz itself; the slim image has no HTTP client for a
# Docker HEALTHCHECK.
ENTRYPOINT ["/usr/local/bin/jobset-webhook"]
CMD ["--tls-cert-file=/certs/tls.crt", "--tls-private-key-file=/certs/tls.key"]

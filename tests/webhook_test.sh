#!/bin/sh
# End-to-end tests of jobset-webhook: starts the real server with fresh certificates on free
# loopback ports and talks to it over TLS. Skips (exit 77) when a needed tool is missing.
#
# Usage: tests/webhook_test.sh JOBSET_WEBHOOK TESTTOOL KUBECTL_JOBSET SOURCE_DIR [own|corpus]
set -eu
for tool in openssl python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (needed by the webhook integration tests)"
    exit 77
  fi
done
if ! python3 -c 'import ssl, http.client' >/dev/null 2>&1; then
  echo "SKIP: python3 lacks the ssl module"
  exit 77
fi
exec python3 "$4/tests/webhook/webhook_test.py" "$@"

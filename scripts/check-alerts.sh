#!/usr/bin/env bash
# Checks ops/prometheus/alerts.yml with promtool and runs its rule unit tests (alerts.test.yml).
# promtool comes from Debian's `prometheus` package: the one on PATH, else the package's binary unpacked
# into .cache/promtool (apt-get download, then only promtool taken out of it, so no Prometheus server is installed or started).
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=.cache/promtool
promtool_bin() {
  if command -v promtool >/dev/null 2>&1; then command -v promtool; return; fi
  if [ -x "$CACHE/usr/bin/promtool" ]; then echo "$CACHE/usr/bin/promtool"; return; fi
  echo "promtool missing: fetching Debian's prometheus package to unpack it into $CACHE" >&2
  if ! apt-cache policy prometheus 2>/dev/null | grep -q 'Candidate: [0-9]'; then apt-get update -qq >&2; fi
  local dir
  dir=$(mktemp -d)
  (cd "$dir" && apt-get download -qq prometheus >&2) || {
    echo "could not download Debian's prometheus package (apt-get download prometheus); install it with 'apt-get install prometheus' and run again" >&2
    rm -rf "$dir"
    exit 1
  }
  mkdir -p "$CACHE"
  dpkg-deb --fsys-tarfile "$dir"/prometheus_*.deb | tar -x -C "$CACHE" ./usr/bin/promtool
  rm -rf "$dir"
  echo "$CACHE/usr/bin/promtool"
}

PROMTOOL=$(promtool_bin)
"$PROMTOOL" check rules ops/prometheus/alerts.yml
"$PROMTOOL" test rules ops/prometheus/alerts.test.yml

#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the console's browser tests (playwright-core drives it; a
# browser download with `npx playwright install` needs the internet, which CI does not have). Installs the
# `chromium` package with apt-get when it is missing; fails with a clear message when it can't.
# VETTED_CHROMIUM names another Chromium binary to use instead.
set -euo pipefail

CHROMIUM="${VETTED_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ -n "${VETTED_CHROMIUM:-}" ]; then
  echo "VETTED_CHROMIUM=$CHROMIUM is not an executable file." >&2
  exit 1
fi

echo "== chromium: not installed; installing Debian's chromium package (apt-get)"
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null; then SUDO="sudo -n"; else
    echo "Chromium is missing and this user cannot install it. Run as root: apt-get update && apt-get install -y chromium" >&2
    exit 1
  fi
fi
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null; }; then
  echo "Could not install chromium with apt-get (no Debian mirror reachable?). Install it yourself (apt-get install -y chromium)," >&2
  echo "or point VETTED_CHROMIUM at a Chromium binary, then run the browser tests again (npm run test:e2e)." >&2
  exit 1
fi
[ -x "$CHROMIUM" ] || { echo "apt-get installed chromium but $CHROMIUM is missing; set VETTED_CHROMIUM to its path." >&2; exit 1; }
echo "== chromium: $("$CHROMIUM" --version 2>/dev/null | head -1)"

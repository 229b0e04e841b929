#!/usr/bin/env bash
# The reviewer console's browser tests (`npm run test:e2e`, also run by `npm test`): PostgreSQL and Redis up,
# Debian's Chromium installed, the console built from console/, then the e2e vitest project (one API, its
# workers and one Chromium shared by the scenarios). Screenshots land in test-results/console/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${VETTED_E2E_READY:-}" != "1" ]; then
  bash scripts/ensure-services.sh
  bash scripts/ensure-chromium.sh
  echo "== console build" && npm run --silent console:build
fi
echo "== browser tests (Chromium)" && npx --no-install vitest run --project e2e "$@"

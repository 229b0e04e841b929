#!/usr/bin/env bash
# The test command (`npm test`): services up, generated files fresh, types and lint clean, the build, then every test, and
# the reviewer console's browser tests in Chromium (scripts/test-e2e.sh, also `npm run test:e2e` alone).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-services.sh
bash scripts/ensure-chromium.sh
echo "== typecheck" && npx --no-install tsc --noEmit -p . && npx --no-install tsc --noEmit -p console
echo "== lint" && npx --no-install eslint . && npx --no-install madge --circular --extensions ts src workers api >/dev/null
echo "== alerts (promtool)" && bash scripts/check-alerts.sh
echo "== console build" && npm run --silent console:build
# The compiled dist/ is what `vetted` runs (bin/vetted.mjs), so the CLI, package and container tests need it fresh.
echo "== build" && npm run --silent build
# Redocly's recommended rules on the document the API serves (a test holds docs/openapi.json to it). Telemetry
# and the update check are off, so the lint needs no network.
echo "== openapi lint" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_NOTIFICATIONS=true npx --no-install redocly lint --format=stylish docs/openapi.json
echo "== tests" && npx --no-install vitest run --project unit --project integration "$@"
VETTED_E2E_READY=1 bash scripts/test-e2e.sh

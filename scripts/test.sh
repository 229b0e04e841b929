#!/usr/bin/env bash
# The test command (`npm test`): services up, generated files fresh, types and lint clean, then every test, and
# the reviewer console's browser tests in Chromium (scripts/test-e2e.sh, also `npm run test:e2e` alone).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-services.sh
bash scripts/ensure-chromium.sh
echo "== typecheck" && npx --no-install tsc --noEmit -p . && npx --no-install tsc --noEmit -p console
echo "== lint" && npx --no-install eslint . && npx --no-install madge --circular --extensions ts src workers api >/dev/null
echo "== alerts (promtool)" && bash scripts/check-alerts.sh
echo "== console build" && npm run --silent console:build
echo "== tests" && npx --no-install vitest run --project unit --project integration "$@"
VETTED_E2E_READY=1 bash scripts/test-e2e.sh

#!/usr/bin/env bash
# The test command (`npm test`): services up, generated files fresh, types and lint clean, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-services.sh
echo "== typecheck" && npx --no-install tsc --noEmit -p .
echo "== lint" && npx --no-install eslint . && npx --no-install madge --circular --extensions ts src workers api >/dev/null
echo "== alerts (promtool)" && bash scripts/check-alerts.sh
# Redocly's recommended rules on the document the API serves (a test holds docs/openapi.json to it). Telemetry
# and the update check are off, so the lint needs no network.
echo "== openapi lint" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_NOTIFICATIONS=true npx --no-install redocly lint --format=stylish docs/openapi.json
echo "== tests" && npx --no-install vitest run "$@"

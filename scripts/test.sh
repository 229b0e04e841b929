#!/usr/bin/env bash
# The test command (`npm test`): services up, generated files fresh, types and lint clean, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-services.sh
echo "== typecheck" && npx --no-install tsc --noEmit -p .
echo "== lint" && npx --no-install eslint . && npx --no-install madge --circular --extensions ts src workers api >/dev/null
echo "== alerts (promtool)" && bash scripts/check-alerts.sh
echo "== tests" && npx --no-install vitest run "$@"

#!/usr/bin/env bash
# `npm test`: installs what the tests need (Chromium, CJK and Latin fonts from apt, npm packages), checks
# types, catalogs, the house rules and lint, builds the PWA, then runs every test: unit, server (PGlite and PostgreSQL), e2e.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
fc-list 2>/dev/null | grep -qi 'Noto Sans CJK' || need+=(fonts-noto-cjk)
# A Latin font with Arial's metrics, as phones have (Roboto, San Francisco): alone, DejaVu Sans (Chromium's
# own) draws English wider than any phone, and the 320 px checks would judge a font no trader sees.
fc-list 2>/dev/null | grep -qi 'Liberation Sans' || need+=(fonts-liberation)
if [ ${#need[@]} -gt 0 ]; then
  echo "[test] apt-get install ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
source scripts/ensure-deps.sh
echo "[test] catalogs (lingui extract) and typecheck" >&2
npx lingui extract --clean >/dev/null
npx tsc -p tsconfig.json
npx tsc -p sw/tsconfig.json
echo "[test] the house rules (dependency-cruiser: .dependency-cruiser.cjs)" >&2
if ! rules=$(npx depcruise src server strategy contract sw --config .dependency-cruiser.cjs --output-type err 2>&1); then
  echo "$rules" | grep -e 'error' -e 'violations' >&2
  exit 1
fi
echo "[test] lint and format (Biome: biome.jsonc; details with npm run lint, fixes with npm run format)" >&2
npx biome check --error-on-warnings --reporter=summary . >&2
source scripts/build-if-stale.sh
echo "[test] vitest" >&2
mkdir -p test-results
rm -f test-results/vitest-*.json
# Vitest runs a project whose files go one at a time (e2e: one server, one browser) in a group of its
# own, after the others: the browser tests and the server tests then took 10 + 8 minutes one after the
# other on this 2-core machine. Two runs side by side instead; the browser run's output follows. The
# server and unit run takes two files at a time (Vitest's default on 2 cores is one): most of a server
# test's time is waiting (timers, polls, the database), which the other file fills.
rest=0
e2e_status=0
npx vitest run --project e2e --passWithNoTests --reporter=default --reporter=json --outputFile.json=test-results/vitest-e2e.json "$@" >test-results/e2e.log 2>&1 &
e2e=$!
npx vitest run --project server --project unit --maxWorkers=2 --passWithNoTests --reporter=default --reporter=json --outputFile.json=test-results/vitest-rest.json "$@" 2>&1 | tee test-results/rest.log || rest=$?
wait $e2e || e2e_status=$?
cat test-results/e2e.log
node scripts/test-summary.ts "$e2e_status" "$rest" || true
[ "$rest" = 0 ] && [ "$e2e_status" = 0 ]

#!/usr/bin/env bash
# `npm start`: install, build when needed, and start the one server (PWA + /api, embedded database).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/ensure-deps.sh
source scripts/build-if-stale.sh
exec node server/main.ts

#!/usr/bin/env bash
# `npm run dev`: the API server on API_PORT (8080) and the Vite dev server on 5173, proxying /api.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/ensure-deps.sh
export API_PORT="${API_PORT:-8080}"
PORT="$API_PORT" node server/main.ts &
server=$!
trap 'kill $server 2>/dev/null' EXIT
npx vite

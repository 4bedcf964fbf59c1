#!/usr/bin/env bash
# `npm run dev`: the API server on API_PORT (8080) and the Vite dev server on 5173, proxying /api.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/ensure-deps.sh
export API_PORT="${API_PORT:-8080}"
# Wallet sign-in names the site the trader is on: the Vite server too.
PUBLIC_ORIGIN="${PUBLIC_ORIGIN:-http://localhost:5173,http://127.0.0.1:5173,http://localhost:$API_PORT,http://127.0.0.1:$API_PORT}" PORT="$API_PORT" node server/main.ts &
server=$!
trap 'kill $server 2>/dev/null' EXIT
npx vite

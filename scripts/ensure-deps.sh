#!/usr/bin/env bash
# Sourced by start.sh and test.sh: Node 24 on PATH, npm packages installed (npm install, not npm ci:
# the registry here lacks some other-platform optional binaries that npm ci insists on).
source "$(dirname "${BASH_SOURCE[0]}")/node-env.sh"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ package.json -nt node_modules/.package-lock.json ]; then
  echo "[deps] npm install" >&2
  npm install --no-audit --no-fund --loglevel=error
fi

#!/usr/bin/env bash
# Runs a command with Node >= 22.19 first on PATH (bootstrapping Node 24 into .tools when needed).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node-env.sh"
exec "$@"

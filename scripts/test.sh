#!/usr/bin/env bash
# Runs the whole test suite (unit, integration, end-to-end) against the local PostgreSQL, Redis and NATS.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
pnpm run lint
pnpm run typecheck
pnpm run test

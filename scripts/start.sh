#!/usr/bin/env bash
# Brings the whole exchange up on the local PostgreSQL, Redis and NATS, with the demo catalog.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec node scripts/start.mjs "$@"

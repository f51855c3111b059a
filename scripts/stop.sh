#!/usr/bin/env bash
# Stops what scripts/start.sh started in the background.
set -euo pipefail
cd "$(dirname "$0")/.."
exec node scripts/start.mjs --stop

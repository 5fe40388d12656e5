#!/usr/bin/env bash
# Times the release binary on real-sized inputs against the SHA-256 floor and,
# given a checkout of heznpc/inertbox, against the reference implementation.
# Usage: scripts/bench.sh [REF_CHECKOUT]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin inertbox --example sha256_floor --example spawn_timer
exec python3 scripts/bench.py "$@"

#!/usr/bin/env bash
# Times the release binary on real-sized inputs against the SHA-256 floor and,
# given a checkout of heznpc/inertbox, against the reference implementation.
# On Linux with glibc it also builds the statically linked binary (README,
# Install) and times the per-call rows with both.
# Usage: scripts/bench.sh [REF_CHECKOUT]   or   scripts/bench.sh --per-call | --real
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin inertbox --example sha256_floor --example spawn_timer --example real_corpus
host=$(rustc -vV | sed -n 's/^host: //p')
case "$host" in
  *-linux-gnu) RUSTFLAGS='-C target-feature=+crt-static' cargo build --release --quiet --bin inertbox --target "$host" ;;
esac
exec python3 scripts/bench.py "$@"

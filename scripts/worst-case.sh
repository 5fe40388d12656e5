#!/usr/bin/env bash
# The worst-case suite on the release binary (see scripts/worst-case.py).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin inertbox --example hostile
exec python3 scripts/worst-case.py "$@"

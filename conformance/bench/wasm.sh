#!/usr/bin/env bash
# Benchmarks of the wasm backend (runtime/wasm) against raw wazero over a
# host directory: a hello-world guest (compiled once), a file-heavy guest,
# the compile cache, and the CPU cost of interruptibility.
#
#   bash conformance/bench/wasm.sh [-rounds N] [-files N] [-spin N]
set -euo pipefail
cd "$(dirname "$0")/../.."
go run ./conformance/bench/wasmbench -root . "$@"

#!/usr/bin/env bash
# Configures (once) and builds Loom in build/ with Ninja, two jobs (the reference machine has 2 cores).
# usage: scripts/build.sh [TARGET...]   (default: everything, tests included)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${LOOM_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${LOOM_BUILD_TYPE:-RelWithDebInfo}
fi
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$BUILD_DIR" -j "${LOOM_JOBS:-2}" "${targets[@]}"

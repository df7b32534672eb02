#!/usr/bin/env bash
# The README's second command (and CI's): install what is missing, build, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
cd "${LOOM_BUILD_DIR:-build}"
ctest --output-on-failure -j "${LOOM_JOBS:-2}"

#!/usr/bin/env bash
# Runs one example's host program on its loomc-compiled binary, through the system ICD loader.
# usage: scripts/run-example.sh NAME [N]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${LOOM_BUILD_DIR:-build}
name=${1:-vector_add}
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$PWD/$BUILD_DIR/loom.icd}
exec "$BUILD_DIR/bin/$name" "$BUILD_DIR/examples/$name.loom" "examples/$name/$name.cl" ${2:+"$2"}

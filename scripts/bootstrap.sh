#!/usr/bin/env bash
# The README's first command: install what is missing, build Loom, compile examples/vector_add with
# loomc and run it on the simulated board and on the CPU device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# What the example needs: the compiler, the ICD, the board process and the example (tests build with
# scripts/test.sh).
bash scripts/build.sh loomc LoomOpenCL loom-board vector_add vector_add_binary
bash scripts/run-example.sh vector_add 1000000

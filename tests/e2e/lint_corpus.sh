#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Checks the Verilog loomc generated for a differential corpus file: every kernel's top module passes
# verilator --lint-only -Wall silently and, when yosys is given, yosys elaborates it (hierarchy -check),
# turns its processes into netlists (proc) and finds no problem in any module: no net with two drivers,
# no logic loop, no undriven signal in use (check -assert). synth's optimisations are left out: they
# reject nothing these passes accept, and took 760 s of CPU on one kernel of the pipes corpus (1 KiB
# structs through a pipe) where these take 24 s. The library modules are fully synthesized by
# tests/hls/rtl.
# usage: lint_corpus.sh <program.v> <verilator> [yosys]
set -u
verilog=$1 verilator=$2 yosys=${3:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Verilator wants the file named after its first module; the library modules share it.
kernels=$(sed -n 's/^module \(loom_kernel_[A-Za-z0-9_]*\).*/\1/p' "$verilog")
[ -n "$kernels" ] || { echo "lint_corpus: no kernel modules in $verilog" >&2; exit 1; }
status=0
for kernel in $kernels; do
  # The kernel's own modules (its top, and its compute unit's) and the library's, not the other
  # kernels': reading a whole corpus for each kernel made parsing most of the time.
  awk -v top="$kernel" '
    /^module / { name = $2; sub(/[(#;].*/, "", name); keep = name !~ /^loom_kernel_/ || name == top || name == top "_unit"; inside = 1 }
    !inside || keep { print }
    /^endmodule/ { inside = 0 }' "$verilog" > "$dir/$kernel.v"
  # --unroll-count as the simulation model's build (sim/lib/ModelBuilder.cpp): loom_ram's loop over
  # its write ports unrolls for memories of more than 64.
  log=$("$verilator" --lint-only -Wall -Wno-DECLFILENAME --unroll-count 4096 --top-module "$kernel" "$dir/$kernel.v" 2>&1)
  if [ -n "$log" ]; then
    echo "$log"
    echo "lint_corpus: $kernel: verilator lint is not clean" >&2
    status=1
  fi
  if [ -n "$yosys" ] && ! log=$("$yosys" -q -p "hierarchy -check -top $kernel; proc; check -assert" "$dir/$kernel.v" 2>&1); then
    echo "$log"
    echo "lint_corpus: $kernel: yosys found a problem" >&2
    status=1
  fi
  rm -f "$dir/$kernel.v"
  echo "lint_corpus: $kernel checked"
done
exit $status

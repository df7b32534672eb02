#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The installed layout works on its own: `cmake --install` into a staging directory, then the
# installed loomc compiles vector_add and the example host program runs it on both devices through
# the installed ICD library (which finds its loom-board and libloom_verilated relative to itself).
# The vendor file names the library at its final path, so the loader finds Loom with no variable set.
# usage: install_check.sh <build dir> <vector_add.cl> <vector_add host program>
set -eu
build=$1 source=$2 host=$3
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
prefix=/opt/loom-install-check
DESTDIR=$stage cmake --install "$build" --prefix "$prefix" >"$stage/install.log"
fail() { echo "install_check: $1" >&2; cat "$stage/install.log" >&2; exit 1; }

icd=$stage/etc/OpenCL/vendors/loom.icd
[ -f "$icd" ] || fail "no /etc/OpenCL/vendors/loom.icd"
library=$(cat "$icd")
case $library in
  "$prefix"/*/libLoomOpenCL.so) ;;
  *) fail "loom.icd names '$library', not the installed library under $prefix" ;;
esac
[ -f "$stage$library" ] || fail "the library loom.icd names was not installed"
[ -x "$stage$prefix/bin/loomc" ] || fail "loomc was not installed"
[ -n "$(find "$stage$prefix" -name loom-board -type f)" ] || fail "loom-board was not installed"

# LOOM_ICD_VENDORS_DIR puts the vendor file elsewhere (a snapshot for OCL_ICD_VENDORS), leaving
# /etc/OpenCL/vendors alone.
elsewhere=$stage/elsewhere
LOOM_ICD_VENDORS_DIR=/srv/vendors DESTDIR=$elsewhere cmake --install "$build" --prefix "$prefix" >"$stage/install.log"
[ "$(cat "$elsewhere/srv/vendors/loom.icd")" = "$library" ] || fail "no loom.icd in LOOM_ICD_VENDORS_DIR"
[ ! -e "$elsewhere/etc/OpenCL/vendors/loom.icd" ] || fail "loom.icd written to /etc despite LOOM_ICD_VENDORS_DIR"

# Run from the staging directory: a vendor file naming the staged library stands in for the real one.
vendors=$stage/vendors
mkdir -p "$vendors"
echo "$stage$library" >"$vendors/loom.icd"
"$stage$prefix/bin/loomc" "$source" -o "$stage/vector_add.loom" -q || fail "the installed loomc failed"
OCL_ICD_VENDORS=$vendors "$host" "$stage/vector_add.loom" "$source" 20000 || fail "the example failed"
echo "install_check: ok"

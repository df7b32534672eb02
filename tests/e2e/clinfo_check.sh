#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs clinfo (with OCL_ICD_VENDORS naming loom.icd) and checks that it lists the Loom platform with
# the expected number of devices and that no query returned an error.
# usage: clinfo_check.sh <clinfo> <expected device count>
set -u
out=$("$1" 2>&1)
status=$?
echo "$out"
fail() { echo "clinfo_check: $1" >&2; exit 1; }
[ $status -eq 0 ] || fail "clinfo exited with status $status"
echo "$out" | grep -Eq '^ *Platform Name +Loom$' || fail "no platform named Loom"
echo "$out" | grep -Eq "^ *Number of devices +$2$" || fail "Loom does not list $2 devices"
if echo "$out" | grep -E 'CL_INVALID|CL_OUT_OF|CL_BUILD|CL_DEVICE_NOT|<error|[Ee]rror:|error [0-9-]'; then
  fail "clinfo reported errors (lines above)"
fi
echo "clinfo_check: ok"

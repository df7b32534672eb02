// SPDX-License-Identifier: Apache-2.0
// The float-arithmetic math library: every math builtin of OpenCL C (section 6.15.2) on float scalars
// as float and integer operations the hardware flow synthesises (no calls, no double, no loops with
// a data-dependent trip count), within the spec's ULP bounds under the board's flush-to-zero units.
// Functions are loom_<name>; builtins/math.cl maps the builtins onto them for the spir64 target and
// applies them lane by lane to vectors. Compiled for the host too by tests/frontend (FloatMathTest),
// which checks each against its bound.
#pragma once
#include "float_support.h"

#include "rounding.cl"
#include "exp_log.cl"
#include "pow.cl"
#include "trig.cl"
#include "inverse_trig.cl"
#include "hyperbolic.cl"
#include "special.cl"
#include "remainder.cl"
#include "fma.cl"

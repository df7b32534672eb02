//===- GuardDivisions.h - Integer divisions that cannot trap on the host -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// OpenCL C leaves the result of an integer division or remainder by zero, and of the smallest
// signed value by -1, undefined; a GPU gives some value. On x86 both trap (SIGFPE), which would kill
// the application that launched the kernel (the CTS integer_ops suite did). Before optimisation,
// each such divisor that is not a safe constant is replaced by 1 where it would trap: one compare and
// a select beside a division that costs tens of cycles.
//
// Before: %q = sdiv i32 %a, %b
// After:  %zero = icmp eq i32 %b, 0; %overflow = and (icmp eq %a, INT_MIN), (icmp eq %b, -1)
//         %safe = select (or %zero, %overflow), i32 1, i32 %b; %q = sdiv i32 %a, %safe
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/Module.h"

namespace loom::runtime::cpu {

/// Guards every sdiv, udiv, srem and urem of `module` (scalars and vectors, lane by lane) as above.
/// Returns how many it guarded.
unsigned guardIntegerDivisions(llvm::Module &module);

} // namespace loom::runtime::cpu

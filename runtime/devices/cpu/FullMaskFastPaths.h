//===- FullMaskFastPaths.h - Masked vector accesses with every lane on run plain -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The loop vectorizer turns a load or store under a work-item condition into a masked one
// (vmaskmovps on AVX2), even where the condition holds for nearly every vector: a 2D stencil's
// `if (x == 0 || x == width - 1)` is off for all but the first and last vector of a row. Those masked
// loads held the stencil at half the bandwidth of the same kernel without the border test (6.7 against
// 14 GB/s on a Zen 3): the hardware prefetcher does not follow them. After O3, each masked load or
// store of a work-group function is guarded by a test of its mask: with every lane on, it runs as
// the plain access it then equals; otherwise as before.
//
// Before: %v = call <8 x float> @llvm.masked.load(%p, 4, %mask, %passthru)
// After:  br (and-reduce %mask), plain, masked
//         plain:  %a = load <8 x float>, %p, align 4
//         masked: %b = call <8 x float> @llvm.masked.load(%p, 4, %mask, %passthru)
//         %v = phi [%a, plain], [%b, masked]
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Module.h"

#include <string>

namespace loom::runtime::cpu {

/// Gives every masked vector load and store in the work-group functions `symbols` of `module` a
/// plain path taken when its mask is all true; returns how many it guarded.
unsigned addFullMaskFastPaths(llvm::Module &module, llvm::ArrayRef<std::string> symbols);

} // namespace loom::runtime::cpu

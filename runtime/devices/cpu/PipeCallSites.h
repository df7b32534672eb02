//===- PipeCallSites.h - Where a kernel's pipe calls are in its source -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A pipe call that may wait (read_pipe, write_pipe, a reservation) passes its call site's number to
// the CPU device's pipe operations (PipeOperations.h), so that a deadlock's diagnosis can say at
// which source line each kernel waits. The builtin library passes 0 (unknown); this numbers the
// calls, from 1, while the module still has its line tables.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/Module.h"

#include <string>
#include <vector>

namespace loom::runtime::cpu {

/// Numbers the waiting pipe calls of `module`; entry k - 1 of the result is call site k's
/// "file:line:col" (empty without line tables).
std::vector<std::string> numberPipeCallSites(llvm::Module &module);

} // namespace loom::runtime::cpu

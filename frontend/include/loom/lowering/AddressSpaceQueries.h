//===- AddressSpaceQueries.h - to_global, to_local, to_private ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// OpenCL C 2.0's to_global, to_local and to_private (section 6.13.9): Clang 15 calls __to_global,
// __to_local and __to_private for them, with the generic pointer as an i8 pointer, and expects the
// pointer in the named space back, or null when it points elsewhere. Each back end answers them its
// own way: in hardware, from the space a pointer provably comes from
// (hls/passes/InferAddressSpaces.cpp); on the CPU, from the memory the launch gave the work-group
// (runtime/devices/cpu/AddressSpaceQueries.cpp).
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <utility>
#include <vector>

namespace loom::lowering {

/// The memory a to_global, to_local or to_private asks about.
enum class AddressSpaceQuery { Global, Local, Private };

/// The query Clang's function `symbol` makes, if it is one of the three.
inline llvm::Optional<AddressSpaceQuery> addressSpaceQueryNamed(llvm::StringRef symbol) {
  return llvm::StringSwitch<llvm::Optional<AddressSpaceQuery>>(symbol)
      .Case("__to_global", AddressSpaceQuery::Global)
      .Case("__to_local", AddressSpaceQuery::Local)
      .Case("__to_private", AddressSpaceQuery::Private)
      .Default(llvm::None);
}

/// The function's calls of the three, in order, with what each asks.
inline std::vector<std::pair<llvm::CallInst *, AddressSpaceQuery>> addressSpaceQueries(llvm::Function &function) {
  std::vector<std::pair<llvm::CallInst *, AddressSpaceQuery>> calls;
  for (llvm::Instruction &inst : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst); call && call->getCalledFunction())
      if (auto query = addressSpaceQueryNamed(call->getCalledFunction()->getName()))
        calls.emplace_back(call, *query);
  return calls;
}

} // namespace loom::lowering

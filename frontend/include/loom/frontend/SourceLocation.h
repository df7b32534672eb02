//===- SourceLocation.h - Where in the kernel source an instruction is -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instruction.h"

#include <string>

namespace loom::frontend {

/// "file:line:col" of an instruction (an inlined builtin's is its call's), or "" without line tables.
inline std::string sourceLocation(const llvm::Instruction &instruction) {
  const llvm::DILocation *location = instruction.getDebugLoc().get();
  if (!location)
    return "";
  return (location->getFilename() + ":" + llvm::Twine(location->getLine()) + ":" + llvm::Twine(location->getColumn()))
      .str();
}

/// The same followed by ": ", to start a diagnostic, or "".
inline std::string diagnosticPrefix(const llvm::Instruction &instruction) {
  std::string location = sourceLocation(instruction);
  return location.empty() ? location : location + ": ";
}

} // namespace loom::frontend

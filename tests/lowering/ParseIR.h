// SPDX-License-Identifier: Apache-2.0
// The lowering tests' input: LLVM IR text with typed pointers, as the frontend makes it.
#pragma once

#include <catch2/catch.hpp>

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

/// The module `text` describes; fails the test with the parser's message when it is not valid IR.
inline std::unique_ptr<llvm::Module> parseIR(llvm::LLVMContext &context, const std::string &text) {
  context.setOpaquePointers(false);
  llvm::SMDiagnostic diagnostic;
  auto module = llvm::parseAssemblyString(text, diagnostic, context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream stream(message);
    diagnostic.print("test", stream);
    FAIL(stream.str());
  }
  return module;
}

//===- OpenCLCompiler.h - OpenCL C / SPIR-V to LLVM IR, in-process -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Compiles OpenCL C with the Clang 15 libraries (never a clang binary) into an LLVM module with typed
// pointers (SPIRV-LLVM-Translator 15 aborts on opaque pointers). Two targets: `Hardware` (spir64, the
// input of the HLS flow) and `Host` (the host CPU's triple, for the CPU device). Clang's diagnostics
// become the build log: "file:line:col: error: message", the source line and a caret.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace loom::frontend {

enum class Target {
  Hardware, ///< spir64-unknown-unknown: what hls/ consumes.
  Host,     ///< The host CPU's triple with all address spaces flat: what the CPU device JITs.
};

/// A header the source includes by `name` (clCompileProgram's embedded headers).
struct EmbeddedHeader {
  std::string name; ///< As written in #include, e.g. "mydir/myinc.h".
  std::string text;
};

struct SourceInput {
  std::string text;       ///< OpenCL C source.
  std::string fileName;   ///< Shown in diagnostics, e.g. "vector_add.cl".
  std::string options;    ///< clBuildProgram-style options: -D, -I, -cl-std=CL1.1|CL1.2|CL2.0|CL3.0, -w, -Werror.
  /// Searched before the -I directories; of two with one name, the first is used.
  std::vector<EmbeddedHeader> headers;
};

struct CompiledModule {
  std::unique_ptr<llvm::Module> module;
  std::string log; ///< Warnings (may be empty).
};

/// Compiles OpenCL C to LLVM IR (optimised at -O2, with line tables so later stages can report
/// file:line:col). On failure the error's message is the full build log. `context` is switched to
/// typed-pointer mode: pass a fresh context or one already holding typed-pointer modules.
/// Thread-safe for calls on different contexts.
llvm::Expected<CompiledModule> compileOpenCL(llvm::LLVMContext &context, const SourceInput &input,
                                             Target target);

/// Reads a SPIR-V binary into an LLVM module (spir64) through SPIRV-LLVM-Translator. The translator
/// runs in a forked child because it exits or aborts on input it rejects; those become errors.
llvm::Expected<std::unique_ptr<llvm::Module>> readSpirv(llvm::LLVMContext &context,
                                                        llvm::StringRef spirv);

/// True when `bytes` start with the SPIR-V magic number.
bool isSpirv(llvm::StringRef bytes);

} // namespace loom::frontend

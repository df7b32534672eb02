//===- LoopPragmaBinding.h - Vendor loop pragmas that no Clang loop hint carries -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// `#pragma ii` and `#pragma ivdep` ride on Clang's own loop hints, but a pragma such as Intel's
// `max_interleaving N` has no Clang hint to become. Such a pragma is recorded by its preprocessor
// handler, bound while the AST is built to the loop statement that directly follows it (a warning
// when none does), and, after code generation, written into that loop's llvm.loop metadata as
// `!{!"loom.loop.<name>", i32 N}`, found by the loop's start location (the debug location Clang
// gives every loop under line tables). So loops that start at one source position (a file included
// twice, a macro that writes several loops) share their pragmas. A pragma that names one of the
// loop's variables (`ivdep array(x)`) becomes `!{!"loom.loop.<name>", !"x", i32 N}`, one per
// variable, with a warning when the loop does not use it.
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class DiagnosticsEngine;
class SourceManager;
} // namespace clang

namespace loom::frontend {

/// One compile's loop pragmas, from the preprocessor's handlers to the module's loops.
class LoopPragmaBindings {
public:
  /// A pragma `name N` whose line starts at `at` and ends at `end`; `variable`: the one it names.
  void record(clang::SourceLocation at, clang::SourceLocation end, llvm::StringRef name, unsigned value,
              llvm::StringRef variable = {});

  /// Binds each recorded pragma to the loop statement right after it, as each function's body is
  /// whole; at the end of the file, warns about the pragmas no loop follows.
  std::unique_ptr<clang::ASTConsumer> createBinder(clang::DiagnosticsEngine &diagnostics,
                                                   clang::SourceManager &sources);

  /// Adds each bound pragma to the metadata of the loops that start where its statement does.
  void applyTo(llvm::Module &module) const;

  struct Pragma {
    clang::SourceLocation at, end;
    std::string name;
    unsigned value = 0;
    std::string variable;
    /// The loop statement's start, once bound: its file, line and column.
    std::string file;
    unsigned line = 0, column = 0;
  };

private:
  friend class LoopPragmaBinder;
  /// Loop metadata `id` with the pragmas bound to the loop it starts at (`id` when there are none).
  llvm::MDNode *withPragmas(llvm::MDNode *id) const;

  std::vector<Pragma> pragmas_;
};

} // namespace loom::frontend

//===- SourceTokens.h - Raw tokens for the vendor forms' source rewrites -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The rewrites that make vendor forms Clang rejects into ones it takes (FifoDeclarations,
// LabelledLoopHints, HelperLocalArrays) run before Clang on the source text: they read it as Clang's
// raw lexer does (no macro expansion; keywords are raw identifiers), directives left out.
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Basic/TokenKinds.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <vector>

namespace loom::frontend {

struct SourceToken {
  clang::tok::TokenKind kind;
  llvm::StringRef text;
  size_t offset; ///< Where it starts in the source.
  bool opensBracket() const;
  bool closesBracket() const;
};

/// The tokens of `source` outside preprocessor directives.
std::vector<SourceToken> lexSource(llvm::StringRef source);

} // namespace loom::frontend

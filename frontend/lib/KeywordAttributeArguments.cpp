//===- KeywordAttributeArguments.cpp - xcl_dependence(type="inter", ...) ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Vitis writes some loop attributes with keyword arguments:
// `__attribute__((xcl_dependence(type="inter", direction="RAW", dependent="false")))`. Clang parses
// an unknown attribute's arguments as expressions, and `type="inter"` is an assignment to an
// undeclared name: an error before the attribute is ever looked at. The rewrite blanks each
// `keyword=` inside such an attribute, leaving its values (`xcl_dependence("inter", "RAW",
// "false")`), which Clang then reports as ignored with Loom's reason; every line stays where it was.
//===----------------------------------------------------------------------===//
#include "VendorExtensions.h"

#include "SourceTokens.h"

#include <vector>

namespace loom::frontend {

std::string rewriteKeywordAttributeArguments(llvm::StringRef source) {
  constexpr llvm::StringLiteral Keyworded[] = {"xcl_dependence"};
  const std::vector<SourceToken> tokens = lexSource(source);
  auto is = [&](size_t i, llvm::StringRef text) { return i < tokens.size() && tokens[i].text == text; };
  std::string rewritten = source.str();
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (!llvm::is_contained(Keyworded, tokens[i].text) || !is(i + 1, "("))
      continue;
    long depth = 0;
    for (size_t j = i + 1; j < tokens.size(); ++j) {
      depth += tokens[j].opensBracket() ? 1 : tokens[j].closesBracket() ? -1 : 0;
      if (depth == 0)
        break;
      // `keyword =` directly inside the attribute's parentheses: blanked (same length, same lines).
      if (depth == 1 && tokens[j].kind == clang::tok::raw_identifier && is(j + 1, "=") && !is(j + 2, "=")) {
        const size_t end = tokens[j + 1].offset + 1;
        for (size_t c = tokens[j].offset; c < end; ++c)
          if (rewritten[c] != '\n')
            rewritten[c] = ' ';
      }
    }
  }
  return rewritten;
}

} // namespace loom::frontend

//===- SourceTokens.cpp - Raw tokens for the vendor forms' source rewrites ===//
// SPDX-License-Identifier: Apache-2.0
//
// See SourceTokens.h.
//===----------------------------------------------------------------------===//
#include "SourceTokens.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

namespace loom::frontend {

bool SourceToken::opensBracket() const {
  return kind == clang::tok::l_brace || kind == clang::tok::l_paren || kind == clang::tok::l_square;
}
bool SourceToken::closesBracket() const {
  return kind == clang::tok::r_brace || kind == clang::tok::r_paren || kind == clang::tok::r_square;
}

std::vector<SourceToken> lexSource(llvm::StringRef source) {
  clang::LangOptions options;
  options.OpenCL = true;
  clang::Lexer lexer(clang::SourceLocation(), options, source.begin(), source.begin(), source.end());
  std::vector<SourceToken> tokens;
  clang::Token token;
  for (lexer.LexFromRawLexer(token); token.isNot(clang::tok::eof);) {
    if (token.is(clang::tok::hash) && token.isAtStartOfLine()) {
      // A directive's tokens run to the next line's start (escaped newlines included).
      do
        lexer.LexFromRawLexer(token);
      while (token.isNot(clang::tok::eof) && !token.isAtStartOfLine());
      continue;
    }
    const size_t end = lexer.getBufferLocation() - source.begin();
    tokens.push_back({token.getKind(), source.substr(end - token.getLength(), token.getLength()),
                      end - token.getLength()});
    lexer.LexFromRawLexer(token);
  }
  return tokens;
}

} // namespace loom::frontend

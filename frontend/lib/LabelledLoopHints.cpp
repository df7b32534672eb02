//===- LabelledLoopHints.cpp - opencl_unroll_hint before a labelled loop ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Intel's aoc takes `__attribute__((opencl_unroll_hint(N))) label: for (...)` (and
// `label: __attribute__((opencl_unroll_hint(N))) for (...)`) as the hint on the labelled loop, and
// Vitis code stacks more loop attributes with it (xcl_pipeline_loop, xcl_loop_tripcount); Clang
// applies statement attributes there to the label and rejects the hint. The rewrite ends the label
// with an empty statement and moves the attributes behind it, onto the loop:
// `label:; __attribute__((opencl_unroll_hint(N))) for (...)`, keeping every line where it was.
//===----------------------------------------------------------------------===//
#include "VendorExtensions.h"

#include "SourceTokens.h"

#include <vector>

namespace loom::frontend {

std::string rewriteLabelledLoopHints(llvm::StringRef source) {
  const std::vector<SourceToken> tokens = lexSource(source);
  auto is = [&](size_t i, llvm::StringRef text) { return i < tokens.size() && tokens[i].text == text; };
  // The tokens of a run of `__attribute__((...))` from `i`, one of them opencl_unroll_hint (Vitis
  // code stacks xcl_pipeline_loop and xcl_loop_tripcount with it): their count, or 0.
  auto hintAt = [&](size_t i) -> size_t {
    size_t j = i;
    bool unrollHint = false;
    while (is(j, "__attribute__") && is(j + 1, "(") && is(j + 2, "(")) {
      unrollHint |= is(j + 3, "opencl_unroll_hint");
      long depth = 0;
      for (++j; j < tokens.size(); ++j) {
        depth += is(j, "(") ? 1 : is(j, ")") ? -1 : 0;
        if (depth == 0)
          break;
      }
      if (j == tokens.size())
        return 0;
      ++j;
    }
    return unrollHint ? j - i : 0;
  };
  auto labelAt = [&](size_t i) {
    return i < tokens.size() && tokens[i].kind == clang::tok::raw_identifier && is(i + 1, ":") && !is(i + 2, ":");
  };

  std::string rewritten;
  size_t copied = 0; // Of the source.
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (labelAt(i) && hintAt(i + 2)) {
      // `label: ATTR for`: an empty statement after the label.
      const size_t colonEnd = tokens[i + 1].offset + 1;
      rewritten += source.slice(copied, colonEnd);
      rewritten += ';';
      copied = colonEnd;
      continue;
    }
    const size_t hint = hintAt(i);
    if (!hint || !labelAt(i + hint))
      continue;
    // `ATTR label: for`: the attribute's text becomes blanks (its line breaks stay) and follows the
    // label's empty statement.
    const size_t begin = tokens[i].offset, end = tokens[i + hint - 1].offset + 1;
    const llvm::StringRef attribute = source.slice(begin, end);
    rewritten += source.slice(copied, begin);
    for (char c : attribute)
      rewritten += c == '\n' ? '\n' : ' ';
    const size_t colonEnd = tokens[i + hint + 1].offset + 1;
    rewritten += source.slice(end, colonEnd);
    rewritten += "; ";
    for (char c : attribute)
      rewritten += c == '\n' ? ' ' : c;
    copied = colonEnd;
    i += hint + 1;
  }
  rewritten += source.substr(copied);
  return rewritten;
}

} // namespace loom::frontend

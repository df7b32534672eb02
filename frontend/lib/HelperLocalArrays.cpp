//===- HelperLocalArrays.cpp - aoc's __local arrays in helper functions ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Intel's aoc takes `__local T name[N]...;` in a function that is not a kernel and gives each
// calling kernel the array; OpenCL C allows __local variables in kernels only, and Clang rejects
// it. Two steps make it so:
//  1. rewriteHelperLocalArrays, on the source: the declaration becomes a constant pointer of the
//     same indexing, to memory `__loom_helper_local(bytes, alignment, "name")` gives:
//       __local float buf[8][4];   ->
//       __local float (*const buf)[4] = (__local float (*)[4])__loom_helper_local(sizeof(float[8][4]),
//                                                                              __alignof__(float), "buf");
//     on the declaration's own line (followed by its line breaks, so later lines stay put).
//  2. allocateHelperLocalArrays, on the compiled module: the helpers are inlined into the kernels
//     and each call becomes a __local variable of the kernel (an internal global without initial
//     value, as Clang makes a kernel's own), `kernel.name`.
//===----------------------------------------------------------------------===//
#include "VendorExtensions.h"

#include "InlineIntoKernels.h"
#include "SourceTokens.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"

#include <vector>

namespace loom::frontend {
namespace {

constexpr llvm::StringLiteral HelperLocal = "__loom_helper_local";

/// The replacement of the declaration `tokens[first..last]` (`__local` to `;`), or "" when it is
/// not one array declarator without an initial value.
std::string pointerDeclaration(llvm::StringRef source, const std::vector<SourceToken> &tokens, size_t first, size_t last) {
  size_t bracket = 0; // The first `[` outside brackets: the dimensions start there.
  unsigned nesting = 0;
  for (size_t i = first + 1; i < last; ++i) {
    if (nesting == 0 && (tokens[i].text == "=" || tokens[i].text == ","))
      return "";
    if (nesting == 0 && tokens[i].kind == clang::tok::l_square && !bracket)
      bracket = i;
    nesting += tokens[i].opensBracket();
    nesting -= tokens[i].closesBracket() && nesting > 0;
  }
  if (!bracket || bracket < first + 3 || tokens[bracket - 1].kind != clang::tok::raw_identifier)
    return "";
  // The first dimension's `]`, then the rest.
  size_t firstEnd = bracket;
  for (unsigned depth = 0; firstEnd < last; ++firstEnd) {
    depth += tokens[firstEnd].kind == clang::tok::l_square;
    if (tokens[firstEnd].kind == clang::tok::r_square && --depth == 0)
      break;
  }
  auto text = [&](size_t from, size_t to) { // Tokens [from, to), as written.
    return from < to ? source.slice(tokens[from].offset, tokens[to - 1].offset + tokens[to - 1].text.size()).str()
                     : std::string();
  };
  const std::string type = text(first + 1, bracket - 1), name = tokens[bracket - 1].text.str();
  const std::string inner = text(firstEnd + 1, last), dimensions = text(bracket, last);
  return "__local " + type + " (*const " + name + ")" + inner + " = (__local " + type + " (*)" + inner + ")" +
         HelperLocal.str() + "(sizeof(" + type + dimensions + "), __alignof__(" + type + "), \"" + name + "\");";
}

} // namespace

llvm::StringRef helperLocalPrelude() {
  return "__local void *__loom_helper_local(ulong bytes, ulong alignment, __constant char *name);\n";
}

std::string rewriteHelperLocalArrays(llvm::StringRef source) {
  const std::vector<SourceToken> tokens = lexSource(source);
  std::string rewritten;
  size_t copied = 0;
  unsigned nesting = 0;
  size_t declarationStart = 0; // Of the file-scope declaration the token is in.
  bool inHelper = false;       // Inside a function body that is not a kernel's.
  for (size_t i = 0; i < tokens.size(); ++i) {
    const SourceToken &token = tokens[i];
    if (nesting == 0 && token.kind == clang::tok::l_brace) {
      bool function = false, kernel = false;
      for (size_t j = declarationStart; j < i; ++j) {
        function |= tokens[j].kind == clang::tok::l_paren;
        kernel |= tokens[j].text == "__kernel" || tokens[j].text == "kernel";
      }
      inHelper = function && !kernel;
    }
    const bool startsStatement =
        i > 0 && (tokens[i - 1].kind == clang::tok::semi || tokens[i - 1].kind == clang::tok::l_brace ||
                  tokens[i - 1].kind == clang::tok::r_brace);
    if (inHelper && nesting > 0 && startsStatement && (token.text == "__local" || token.text == "local")) {
      size_t last = i;
      while (last < tokens.size() && tokens[last].kind != clang::tok::semi)
        ++last;
      if (last < tokens.size()) {
        std::string replacement = pointerDeclaration(source, tokens, i, last);
        if (!replacement.empty()) {
          const llvm::StringRef original = source.slice(token.offset, tokens[last].offset + 1);
          rewritten += source.slice(copied, token.offset);
          rewritten += replacement;
          rewritten.append(original.count('\n'), '\n');
          copied = tokens[last].offset + 1;
          i = last;
          continue;
        }
      }
    }
    nesting += token.opensBracket();
    nesting -= token.closesBracket() && nesting > 0;
    if (nesting == 0 && (token.kind == clang::tok::semi || token.kind == clang::tok::r_brace)) {
      declarationStart = i + 1;
      inHelper = false;
    }
  }
  rewritten += source.substr(copied);
  return rewritten;
}

void allocateHelperLocalArrays(llvm::Module &module) {
  if (!module.getFunction(HelperLocal))
    return;
  inlineIntoKernels(module, {HelperLocal});
  for (llvm::Function &kernel : module) {
    if (!isKernel(kernel))
      continue;
    for (llvm::CallInst *call : callsOf(kernel, {HelperLocal})) {
      const uint64_t bytes = llvm::cast<llvm::ConstantInt>(call->getArgOperand(0))->getZExtValue();
      const uint64_t alignment = llvm::cast<llvm::ConstantInt>(call->getArgOperand(1))->getZExtValue();
      llvm::StringRef name;
      llvm::getConstantStringInfo(call->getArgOperand(2), name);
      auto *type = llvm::ArrayType::get(llvm::Type::getInt8Ty(module.getContext()), bytes);
      auto *array = new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::InternalLinkage,
                                             llvm::UndefValue::get(type), kernel.getName() + "." + name, nullptr,
                                             llvm::GlobalValue::NotThreadLocal, call->getType()->getPointerAddressSpace());
      array->setAlignment(llvm::Align(alignment));
      call->replaceAllUsesWith(llvm::ConstantExpr::getBitCast(array, call->getType()));
      llvm::Value *nameString = call->getArgOperand(2);
      call->eraseFromParent();
      if (auto *string = llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(nameString))) {
        string->removeDeadConstantUsers();
        if (string->use_empty())
          string->eraseFromParent();
      }
    }
  }
}

} // namespace loom::frontend

//===- FifoDeclarations.cpp - Program-scope channel and pipe declarations ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Step 1 of ProgramScopeFifos.h: the source rewrite and the prelude's FIFO macros. A FIFO variable
// is an `extern __constant` declaration: OpenCL C 1.x allows no other program-scope variable, and
// an extern one needs no initial value (which no single initializer gives every packet type). Its
// packet type is `__typeof__((0, f))`: the comma drops the address space with the lvalue.
//===----------------------------------------------------------------------===//
#include "ProgramScopeFifos.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include <vector>

namespace loom::frontend {
namespace {

/// The prelude's names for the two keywords: as long as them, so the rest of the line keeps its
/// columns.
constexpr llvm::StringLiteral ChannelMacro = "__Lfifo";
constexpr llvm::StringLiteral PipeMacro = "_Lfp";
static_assert(ChannelMacro.size() == sizeof("channel") - 1 && PipeMacro.size() == sizeof("pipe") - 1);

constexpr llvm::StringLiteral Prelude = R"(
#define __Lfifo extern __constant __attribute__((section("loom.fifo")))
#define _Lfp __Lfifo
#define CLK_CHANNEL_MEM_FENCE 0x08
int __loom_fifo_read(const __constant void *fifo, void *packet, uint size, uint align);
int __loom_fifo_write(const __constant void *fifo, const void *packet, uint size, uint align);
#define __LOOM_FIFO_READ(f, packet) __loom_fifo_read(&(f), &(packet), sizeof(packet), __alignof__(packet))
#define __LOOM_FIFO_WRITE(f, packet) __loom_fifo_write(&(f), &(packet), sizeof(packet), __alignof__(packet))
#define read_channel_intel(ch) ({ __typeof__((0, ch)) __loom_packet; while (__LOOM_FIFO_READ(ch, __loom_packet) != 0) {} __loom_packet; })
#define write_channel_intel(ch, value) ({ __typeof__((0, ch)) __loom_packet = (value); while (__LOOM_FIFO_WRITE(ch, __loom_packet) != 0) {} })
#define read_channel_nb_intel(ch, valid) ({ __typeof__((0, ch)) __loom_packet; *(valid) = __LOOM_FIFO_READ(ch, __loom_packet) == 0; __loom_packet; })
#define write_channel_nb_intel(ch, value) ({ __typeof__((0, ch)) __loom_packet = (value); __LOOM_FIFO_WRITE(ch, __loom_packet) == 0; })
#define read_channel_altera read_channel_intel
#define write_channel_altera write_channel_intel
#define read_channel_nb_altera read_channel_nb_intel
#define write_channel_nb_altera write_channel_nb_intel
#define read_pipe_block(p, ptr) ({ __typeof__((0, p)) __loom_packet; while (__LOOM_FIFO_READ(p, __loom_packet) != 0) {} *(ptr) = __loom_packet; })
#define write_pipe_block(p, ptr) ({ __typeof__((0, p)) __loom_packet = *(ptr); while (__LOOM_FIFO_WRITE(p, __loom_packet) != 0) {} })
)";

bool enablesChannels(llvm::StringRef source) {
  return source.contains("cl_intel_channels") || source.contains("cl_altera_channels");
}

} // namespace

llvm::StringRef fifoPrelude() { return Prelude; }

std::string rewriteFifoDeclarations(llvm::StringRef source) {
  const bool channels = enablesChannels(source);
  clang::LangOptions options;
  options.OpenCL = true;
  clang::Lexer lexer(clang::SourceLocation(), options, source.begin(), source.begin(), source.end());
  std::string rewritten = source.str();
  unsigned nesting = 0;           // Brackets of any kind open around the token.
  bool startsDeclaration = true;  // The token starts a file-scope declaration.
  clang::Token token;
  // The next token outside directives (whose tokens run to the next line's start, escaped newlines
  // included).
  auto next = [&] {
    lexer.LexFromRawLexer(token);
    while (token.is(clang::tok::hash) && token.isAtStartOfLine())
      do
        lexer.LexFromRawLexer(token);
      while (token.isNot(clang::tok::eof) && !token.isAtStartOfLine());
  };
  for (next(); token.isNot(clang::tok::eof); next()) {
    const size_t offset = lexer.getBufferLocation() - source.begin() - token.getLength();
    if (nesting == 0 && startsDeclaration && token.is(clang::tok::raw_identifier)) {
      const llvm::StringRef name = token.getRawIdentifier();
      if (name == "pipe")
        rewritten.replace(offset, name.size(), PipeMacro.str());
      else if (channels && name == "channel")
        rewritten.replace(offset, name.size(), ChannelMacro.str());
    }
    if (token.isOneOf(clang::tok::l_brace, clang::tok::l_paren, clang::tok::l_square))
      ++nesting;
    else if (token.isOneOf(clang::tok::r_brace, clang::tok::r_paren, clang::tok::r_square) && nesting > 0)
      --nesting;
    startsDeclaration = nesting == 0 && token.isOneOf(clang::tok::semi, clang::tok::r_brace);
  }
  return rewritten;
}

} // namespace loom::frontend

//===- FifoDeclarations.cpp - Program-scope channel and pipe declarations ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Step 1 of ProgramScopeFifos.h: the source rewrite and the prelude's FIFO macros. A FIFO variable
// is an `extern __constant` declaration: OpenCL C 1.x allows no other program-scope variable, and
// an extern one needs no initial value (which no single initializer gives every packet type). Its
// packet type is `__typeof__((0, f))`: the comma drops the address space with the lvalue.
//===----------------------------------------------------------------------===//
#include "ProgramScopeFifos.h"

#include "SourceTokens.h"

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
__attribute__((const)) uint get_compute_id(uint dimension);
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
  std::string rewritten = source.str();
  unsigned nesting = 0;          // Brackets of any kind open around the token.
  bool startsDeclaration = true; // The token starts a file-scope declaration.
  for (const SourceToken &token : lexSource(source)) {
    if (nesting == 0 && startsDeclaration && token.kind == clang::tok::raw_identifier) {
      if (token.text == "pipe")
        rewritten.replace(token.offset, token.text.size(), PipeMacro.str());
      else if (channels && token.text == "channel")
        rewritten.replace(token.offset, token.text.size(), ChannelMacro.str());
    }
    nesting += token.opensBracket();
    nesting -= token.closesBracket() && nesting > 0;
    startsDeclaration = nesting == 0 && (token.kind == clang::tok::semi || token.kind == clang::tok::r_brace);
  }
  return rewritten;
}

} // namespace loom::frontend

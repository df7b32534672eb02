//===- Binary.h - The .loom program binary (an ELF container) -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One self-contained file per program, like a bitstream: an ELF64 relocatable file (e_machine EM_X86_64:
// the embedded simulation model is a host shared object)
// whose sections `readelf -S` lists and `objcopy --dump-section` extracts:
//   .loom.meta     JSON: format version, board, kernels (KernelInfo + hardware interface), options
//   .loom.verilog  the generated Verilog, all kernels and library modules
//   .loom.model    the Verilated simulation model, a shared object
//   .loom.cpu      LLVM bitcode for the CPU device (host triple)
//   .loom.log      the build log
//   .loom.hw       LLVM bitcode for the hardware flow (spir64): only in a compiled object or library
//                  for a board (ObjectCode.h), empty in an executable
//   .loom.sum      xxHash64 of every other section, in order, as 16 hex digits (the hash of the
//                  concatenated contents of .loom.meta .loom.verilog .loom.model .loom.cpu .loom.log
//                  .loom.hw)
//   objcopy --dump-section .loom.verilog=out.v program.loom /dev/null
// Reading checks the ELF structure, the format version and the checksum; any failure is an error
// with a sentence a user can act on, never a crash.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace loom::frontend {

/// 2: memory ports of kind "atomic" (with an "op"); models of ModelABI version 2.
/// 3: the .loom.hw section; compiled objects and libraries (meta "type").
/// 4: compute units take their work-groups in turns (12 share arguments a unit).
inline constexpr uint32_t BinaryFormatVersion = 4;

struct ProgramBinary {
  llvm::json::Object meta; ///< Includes "format" and "board"; writeBinary sets "format".
  std::string verilog;
  std::string model;      ///< Shared-object bytes.
  std::string cpuBitcode;
  std::string log;
  std::string hardwareBitcode; ///< Compiled objects and libraries for a board only.

  std::string board() const;
};

/// Serialises to ELF bytes.
std::string writeBinary(const ProgramBinary &binary);
/// Parses and validates ELF bytes.
llvm::Expected<ProgramBinary> readBinary(llvm::StringRef bytes);

} // namespace loom::frontend

//===- Printf.h - printf as records in a buffer the host prints -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The part of the kernel-lowering stage that gives both back ends OpenCL C's printf: each call
// becomes a record appended to a printf buffer in global memory, and the host formats the records
// when the command completes, in the order the work-items appended them. On the board that is one
// atomic add and a few stores, which hardware builds like any other; the format strings stay on
// the host, in a table of the program's calls.
//
// The buffer: PrintfBufferBytes, zeroed before the launch. A header word, the offset of the next
// free byte (it starts at PrintfHeaderBytes and grows with every call, past the end too), then
// records. A record: the call's index in the table plus one (a zero word ends the records), then
// each argument's lanes in order, one 32-bit word per lane (two, low first, for 64-bit integers
// and pointers). A string literal argument is in the table and takes no word. A record that does
// not fit is not written and its call returns -1.
//
// Before: %r = call i32 (i8 addrspace(2)*, ...) @printf(i8 addrspace(2)* @.str, i32 %i, double %f)
// After:  %buffer = call i8 addrspace(1)* @__loom_printf_buffer()
//         %at = atomicrmw add i32 addrspace(1)* %header, i32 12 monotonic
//         if (%at + 12 <= PrintfBufferBytes) { store 1 (call 0), %i, bits of (float)%f at %buffer + %at }
//         %r = 0 if it fitted, else -1
// Each back end binds @__loom_printf_buffer: the CPU device to a work-group function parameter,
// the hardware flow to a kernel argument after the kernel's own.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace loom::lowering {

/// The function each back end binds to its printf buffer's address (global memory, i8*).
constexpr const char *PrintfBufferFunction = "__loom_printf_buffer";
/// The header before the first record: the next free offset.
constexpr uint32_t PrintfHeaderBytes = 4;
/// The buffer a launch of a kernel that calls printf gets, header included
/// (CL_DEVICE_PRINTF_BUFFER_SIZE).
constexpr uint32_t PrintfBufferBytes = 1 << 20;

/// One argument of a printf call as its record holds it.
struct PrintfArgument {
  enum class Kind { Integer, Float, Pointer, String };
  Kind kind = Kind::Integer;
  unsigned lanes = 1;     ///< Vector lanes; 1 for a scalar.
  unsigned laneWords = 1; ///< 32-bit words a lane takes: 2 for 64-bit integers and pointers; 0 for String.
  std::string text;       ///< For String: the literal.
};

/// One printf call of a program: its format and arguments, and the table index its records carry.
struct PrintfCall {
  std::string format;
  std::vector<PrintfArgument> arguments;
  /// The record's bytes: the call's index, then the arguments' words.
  uint32_t recordBytes() const;
};

/// Replaces every printf call of `module` by the code that appends its record (see above) and
/// returns the calls, in the order their indices give. Errors, with the call's file:line:col: a
/// format that is not a string literal, a %s argument that is not one, an argument type printf
/// cannot take.
llvm::Expected<std::vector<PrintfCall>> lowerPrintfCalls(llvm::Module &module);

/// The text the records in `buffer` (a whole printf buffer, header included) print, in buffer
/// order, with the C library's conversions for each lane (OpenCL C's `%v4hld` prints four lanes
/// with `%d`, joined by commas). `lostRecords` says whether calls found the buffer full.
std::string formatPrintfRecords(llvm::ArrayRef<PrintfCall> calls, llvm::ArrayRef<uint8_t> buffer,
                                bool &lostRecords);

llvm::json::Value toJSON(const PrintfCall &call);
bool fromJSON(const llvm::json::Value &value, PrintfCall &call, llvm::json::Path path);

} // namespace loom::lowering

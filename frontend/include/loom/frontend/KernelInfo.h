//===- KernelInfo.h - Kernel metadata extracted once from LLVM IR -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Everything the runtime needs to know about a kernel's interface, read once from Clang's
// kernel_arg_* metadata and kernel attributes, then carried in the binary as JSON.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace loom::frontend {

enum class AddressSpace { Private, Global, Constant, Local };
enum class AccessQualifier { None, ReadOnly, WriteOnly, ReadWrite };

struct KernelArg {
  std::string name;
  std::string typeName;       ///< As written, e.g. "float*" or "uint".
  std::string typeQualifiers; ///< "const", "restrict", "volatile", "pipe", space separated.
  AddressSpace addressSpace = AddressSpace::Private; ///< Of the pointee, for pointers; Private otherwise.
  AccessQualifier access = AccessQualifier::None;
  bool isPointer = false;
  uint32_t size = 0; ///< Bytes clSetKernelArg expects: the scalar's size, or sizeof(cl_mem) for buffers.
  /// A pipe (`read_only pipe int`): typeName is its packets' type.
  bool isPipe() const;
  /// A hidden pipe argument (after the kernel's own): the program-scope channel or pipe of this
  /// name (`c`, `c[1]` for a channel array's element) that the runtime binds, one pipe per program
  /// (ProgramScopeFifos.h). Empty for the kernel's own arguments.
  std::string programFifo;
  uint64_t fifoDepth = 0;
  uint64_t fifoPacketBytes = 0;
};

struct KernelInfo {
  std::string name;
  /// The kernel's own arguments, then the hidden ones of its program-scope FIFOs.
  std::vector<KernelArg> args;
  /// The arguments clSetKernelArg sets: those before the hidden ones.
  size_t userArgCount() const;
  std::array<uint32_t, 3> reqdWorkGroupSize{0, 0, 0}; ///< All zero when not given.
  /// Intel's max_global_work_dim(N): launches use at most N dimensions; 0: a single work-item.
  uint32_t maxGlobalWorkDim = 3;
  /// Intel's max_work_group_size / Xilinx's xcl_max_work_group_size: at most this many work-items
  /// in a group (the product of the sizes given); 0 when not given.
  uint64_t maxWorkGroupSize = 0;
  std::string attributes; ///< CL_KERNEL_ATTRIBUTES text, e.g. "reqd_work_group_size(64,1,1)".
  /// Intel's autorun: no host enqueues it; the runtime starts it (as a single work-item, or as one
  /// work-group of reqdWorkGroupSize) when its program is built, and again each time it finishes,
  /// until the program is released (ProgramScopeFifos.h).
  bool autorun = false;
  /// Launches must have uniform work-groups (OpenCL C 1.x, or -cl-uniform-work-group-size): the
  /// local size divides the global size. False: OpenCL 2.0's non-uniform groups are allowed.
  bool uniformWorkGroups = true;
  /// Bytes of the __local variables the kernel (and what it calls) declares: a work-group's share of
  /// CL_KERNEL_LOCAL_MEM_SIZE before its __local arguments.
  uint64_t localVariableBytes = 0;
  /// Bytes of private memory a work-item keeps in memory at most (CL_KERNEL_PRIVATE_MEM_SIZE): the
  /// private arrays optimisation left as arrays, through the deepest chain of calls.
  uint64_t privateBytes = 0;
};

/// A __local variable: Clang emits them as internal globals without an initial value (in SPIR's
/// local address space; a host triple maps every address space to 0).
bool isLocalVariable(const llvm::GlobalVariable &variable);

/// Reads every kernel of a module compiled by compileOpenCL or readSpirv.
llvm::Expected<std::vector<KernelInfo>> extractKernels(const llvm::Module &module);

llvm::json::Value toJSON(const KernelInfo &kernel);
bool fromJSON(const llvm::json::Value &value, KernelInfo &kernel, llvm::json::Path path);

} // namespace loom::frontend

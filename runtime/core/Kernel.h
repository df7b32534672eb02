//===- Kernel.h - A kernel object and its argument values -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A kernel names one kernel of a built program and collects the arguments clSetKernelArg sets. An
// enqueue snapshots the arguments (and references the buffers) so the kernel object may change or
// go away while the launch waits in the queue.
//===----------------------------------------------------------------------===//
#pragma once

#include "core/Buffer.h"
#include "core/Program.h"

#include <mutex>
#include <vector>

namespace loom::runtime {

class Kernel : public Object {
public:
  Kernel(Program &program, frontend::KernelInfo info);
  ~Kernel();

  const Ref<Program> program;
  const frontend::KernelInfo info;

  void setScalar(unsigned index, const void *bytes, size_t size);
  void setBuffer(unsigned index, Buffer *buffer); ///< Null for a NULL buffer argument.
  void setLocal(unsigned index, size_t bytes);
  /// clCloneKernel: takes `source`'s argument values (and references to its buffers).
  void copyArgsFrom(const Kernel &source);

  /// The arguments for one launch, with references that keep the buffers alive.
  struct Snapshot {
    std::vector<ArgValue> args;
    std::vector<Ref<Buffer>> buffers;
  };
  /// False if an argument was never set.
  bool allArgsSet() const;
  /// Why the arguments as set break a rule of OpenCL C that only their values show (a kernel
  /// cannot read from and write to the same pipe object); empty when they break none.
  std::string argumentConflict() const;
  /// The most work-items a group of this kernel may have on `device` (CL_KERNEL_WORK_GROUP_SIZE): the
  /// device's maximum, bounded further by that device's build of the kernel (max_work_group_size, or
  /// the board's storage across barriers), not by another device's.
  uint64_t maxWorkGroupSize(const PlatformDevice &device) const;
  Snapshot snapshot() const;
  /// CL_KERNEL_LOCAL_MEM_SIZE: the kernel's __local variables and its __local arguments as set.
  uint64_t localMemBytes() const;

private:
  mutable std::mutex mutex;
  std::vector<ArgValue> args;
  std::vector<Ref<Buffer>> argBuffers;
  std::vector<bool> isSet;
};

} // namespace loom::runtime

//===- Device.h - The one interface every Loom device implements -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The cl* entry points (runtime/api/) talk to devices only through this class, as PoCL's drivers sit
// behind one ops table. A device provides a small required core: memory, programs, kernel launch.
// Optional capabilities answer "unsupported" by default. Implementations: devices/board/ (the
// simulated FPGA board, programs from .loom binaries) and devices/cpu/ (LLVM ORC JIT, programs from
// source or from a binary's CPU bitcode). They are listed once, in devices/DeviceList.cpp.
// No cl_int here: errors are llvm::Error and the API layer maps them to CL codes.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/frontend/KernelInfo.h"
#include "loom/frontend/ObjectCode.h"
#include "loom/frontend/OpenCLCompiler.h"
#include "loom/frontend/OpenCLSupport.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace loom::runtime {

enum class DeviceKind { Accelerator, Cpu };

/// Static facts the API reports through clGetDeviceInfo.
struct DeviceInfo {
  DeviceKind kind = DeviceKind::Cpu;
  std::string name;
  std::string vendor = "Loom";
  /// Versions, extensions and OpenCL C features: those its compiler target defines as macros.
  frontend::OpenCLSupport opencl;
  std::string builtInKernels;
  uint32_t computeUnits = 1;
  uint32_t clockMHz = 0;
  size_t maxWorkGroupSize = 1024;
  std::array<size_t, 3> maxWorkItemSizes{1024, 1024, 1024};
  uint64_t globalMemBytes = 0;
  uint64_t maxAllocBytes = 0;
  uint64_t localMemBytes = 0;
  uint32_t subGroupSize = 0;        ///< Work-items per sub-group; 0: no sub-groups.
  /// A group's sub-groups make progress independently of each other (one may wait for another's
  /// store without a barrier): CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, and what
  /// cl_khr_subgroups requires.
  bool independentSubGroups = false;
  /// The largest program-scope __global variable a program may declare (OpenCL C 3.0's
  /// __opencl_c_program_scope_global_variables); 0: none.
  uint64_t maxGlobalVariableBytes = 0;
  /// Pipes (OpenCL C 3.0's __opencl_c_pipes): how many a kernel may take, and the largest packet.
  uint32_t maxPipeArgs = 0;
  uint32_t maxPipePacketBytes = 0;
  /// Reservations a work-item or work-group may hold on a pipe at once.
  uint32_t maxPipeReservations = 0;
  size_t preferredGroupMultiple = 1; ///< CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE.
  bool denormals = true;            ///< CL_FP_DENORM in CL_DEVICE_SINGLE_FP_CONFIG.
  bool compilerAvailable = true;    ///< Builds from source (CL_DEVICE_COMPILER_AVAILABLE).
  uint32_t profilingResolutionNs = 1;
};

/// One region of device global memory, visible to the host at `host`.
struct Allocation {
  void *host = nullptr;
  uint64_t deviceAddress = 0; ///< What a kernel's pointer argument holds.
  size_t size = 0;
};

/// A kernel argument as clSetKernelArg left it.
struct ArgValue {
  enum class Kind { Scalar, Buffer, Local };
  Kind kind = Kind::Scalar;
  std::vector<uint8_t> bytes; ///< Scalar bytes; for Buffer, unused.
  Allocation buffer;          ///< For Buffer (size 0 and deviceAddress 0 for a NULL buffer).
  size_t localBytes = 0;      ///< For Local.
};

struct NDRange {
  uint32_t dims = 1;
  std::array<uint64_t, 3> offset{0, 0, 0};
  std::array<uint64_t, 3> global{1, 1, 1};
  std::array<uint64_t, 3> local{1, 1, 1}; ///< Resolved by the API layer (never zero here).
};

/// What a finished launch reports besides its results in memory.
struct LaunchResult {
  uint64_t cycles = 0;     ///< Simulated kernel clock cycles (board); 0 on the CPU.
  uint64_t deviceNs = 0;   ///< Device time: simulated on the board, measured on the CPU.
  std::string printed;     ///< What the kernel's printf calls printed, in order.
  bool printfBufferFull = false; ///< Some printf calls found the buffer full and printed nothing.
};

/// A program built or loaded for one device.
class DeviceProgram {
public:
  virtual ~DeviceProgram() = default;
  virtual const std::vector<frontend::KernelInfo> &kernels() const = 0;
  /// The program as a binary clGetProgramInfo(CL_PROGRAM_BINARIES) returns.
  virtual std::string binary() const = 0;
  /// Bytes of its program-scope __global variables (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE).
  virtual uint64_t globalVariableBytes() const { return 0; }
  /// Why kernel `kernelIndex` cannot run with `bytes` of __local memory for its __local pointer
  /// argument `argIndex` (the board builds each such argument's memory at compile time), checked
  /// when the launch is queued; success when it can.
  virtual llvm::Error checkLocalArgument(unsigned kernelIndex, unsigned argIndex, uint64_t bytes) const {
    return llvm::Error::success();
  }
};

class Device {
public:
  virtual ~Device() = default;
  virtual const DeviceInfo &info() const = 0;

  virtual llvm::Expected<Allocation> allocate(size_t bytes) = 0;
  virtual void release(const Allocation &allocation) = 0;

  /// Builds OpenCL C source. `log` receives the build log on success and failure.
  virtual llvm::Expected<std::unique_ptr<DeviceProgram>>
  buildFromSource(llvm::StringRef source, llvm::StringRef options, std::string &log) = 0;
  /// Loads an executable binary (a .loom file). A bad binary is an error whose message is the log.
  virtual llvm::Expected<std::unique_ptr<DeviceProgram>> loadBinary(llvm::StringRef bytes,
                                                                    std::string &log) = 0;
  /// clCompileProgram: source (with its embedded headers) to a compiled object for this device.
  virtual llvm::Expected<frontend::ObjectCode> compileObject(const frontend::SourceInput &source,
                                                             std::string &log) = 0;
  /// clLinkProgram: compiled objects and libraries (each passed checkObject) to an executable.
  virtual llvm::Expected<std::unique_ptr<DeviceProgram>>
  link(llvm::ArrayRef<frontend::ObjectCode> objects, llvm::StringRef options, std::string &log) = 0;
  /// Whether this device can link `object` (loaded with clCreateProgramWithBinary); the error says
  /// why not.
  virtual llvm::Error checkObject(const frontend::ObjectCode &object) const = 0;
  /// Runs one kernel to completion. Called from a queue's worker thread; may block for long. Calls
  /// from several threads run at the same time on the device (kernels of different queues, or of an
  /// out-of-order queue, overlap, as a producer and its consumer must).
  virtual llvm::Expected<LaunchResult> launch(DeviceProgram &program, unsigned kernelIndex,
                                              llvm::ArrayRef<ArgValue> args,
                                              const NDRange &range) = 0;
  /// Starts autorun kernel `kernelIndex` (KernelInfo::autorun) of `program` with `args` (its hidden
  /// pipe arguments) over `range`, on a thread of its own (AutorunKernels.h): it runs again each time
  /// it finishes, until `program` is destroyed. `failed` hears why a run failed; the kernel then
  /// stays stopped. Waiting on its channels with no other kernel running is no deadlock for it.
  virtual llvm::Error startAutorun(DeviceProgram &program, unsigned kernelIndex, std::vector<ArgValue> args,
                                   const NDRange &range, std::function<void(const std::string &)> failed) = 0;
};

/// Every device of the Loom platform, created once: the board first, then the CPU.
std::vector<std::unique_ptr<Device>> createDevices();

} // namespace loom::runtime

//===- Program.h - A program: source or binaries, built per device -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// A program keeps, for each of its devices, the input binary (if created from binaries), the
// DeviceProgram once built or loaded, or the compiled object or library (clCompileProgram,
// clLinkProgram -create-library, or such a binary loaded), the build status, options and log. The
// kernels a program exposes come from the first device with a built program.
//===----------------------------------------------------------------------===//
#pragma once

#include "core/Buffer.h"
#include "core/Context.h"

#include "llvm/ADT/Optional.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace loom::runtime {

enum class BuildStatus { None, Error, Success, InProgress };

/// Why a build, compile or link did not succeed; the API maps each to its CL code.
enum class BuildFailure { None, CompilerNotAvailable, InvalidOptions, BuildFailed };

/// What a device's binary is (CL_PROGRAM_BINARY_TYPE).
enum class BinaryType { None, Object, Library, Executable };

class Program : public Object {
public:
  struct PerDevice {
    PlatformDevice *device = nullptr;
    std::string inputBinary;                ///< From clCreateProgramWithBinary.
    std::unique_ptr<DeviceProgram> program; ///< Built or loaded.
    llvm::Optional<frontend::ObjectCode> object; ///< Compiled, linked as a library, or loaded.
    BuildStatus status = BuildStatus::None;
    std::string options;
    std::string log;

    BinaryType binaryType() const;
    /// What clGetProgramInfo(CL_PROGRAM_BINARIES) returns: "" when there is nothing.
    std::string binary() const;
  };

  /// From source, for every device of the context.
  Program(Context &context, std::string source);
  /// From binaries, one per device; call loadBinaries() next.
  Program(Context &context, std::vector<PlatformDevice *> devices, std::vector<std::string> binaries);
  /// clLinkProgram's result, for `devices`; call link() next.
  Program(Context &context, std::vector<PlatformDevice *> devices);

  const Ref<Context> context;
  const bool fromSource;
  const std::string source;

  /// Loads each binary on its device; returns, per device, the loader's error message ("" if it
  /// loaded). A failed load leaves that device's status Error with the message as its log.
  std::vector<std::string> loadBinaries();
  /// clBuildProgram for `devices` (all program devices if empty).
  BuildFailure build(const std::vector<PlatformDevice *> &devices, const std::string &options);
  /// clCompileProgram for `devices` (all program devices if empty).
  BuildFailure compile(const std::vector<PlatformDevice *> &devices, const std::string &options,
                       const std::vector<frontend::EmbeddedHeader> &headers);
  /// clLinkProgram: for each device of this program, links the objects `inputs` hold for it (the
  /// API checked that all or none of them have one). Only a link error fails.
  BuildFailure link(const std::vector<Program *> &inputs, const frontend::LinkOptions &options);

  std::vector<PlatformDevice *> devices() const;
  /// Null if `device` is not one of the program's devices. Lock `mutex` while reading fields that a
  /// concurrent build may change.
  PerDevice *find(const PlatformDevice *device);
  const std::vector<PerDevice> &entries() const { return perDevice; }
  /// Kernels of the first successfully built device; null if none is built.
  const std::vector<frontend::KernelInfo> *kernels() const;
  /// Those of them a host creates and enqueues: all but the autorun ones.
  std::vector<const frontend::KernelInfo *> hostKernels() const;
  /// Index of kernel `name` in `device`'s program, or -1.
  int kernelIndex(const PlatformDevice &device, const std::string &name) const;
  /// Kernel `name` as `device`'s build has it (its limits may differ from another device's), or null.
  const frontend::KernelInfo *kernelOn(const PlatformDevice &device, const std::string &name) const;

  /// The pipe of the program-scope channel or pipe a hidden kernel argument names
  /// (KernelArg::programFifo): one per name, made for the first kernel that uses it, shared by
  /// every kernel of the program. Lock `mutex` first.
  llvm::Expected<Buffer *> programFifo(const frontend::KernelArg &arg);

  std::mutex mutex;
  std::atomic<uint32_t> attachedKernels{0}; ///< Kernel objects alive: rebuilding is then invalid.

private:
  /// `device`'s program if it built or loaded, else null.
  const DeviceProgram *builtFor(const PlatformDevice &device) const;
  /// Starts the autorun kernels (KernelInfo::autorun) of `entry`'s program, just built or loaded,
  /// with their channels bound; they stop with that program. Needs `mutex`.
  llvm::Error startAutorunKernels(PerDevice &entry);

  // The FIFOs outlive the device programs, whose autorun kernels use them until they stop.
  std::map<std::string, Ref<Buffer>> fifos;
  std::vector<PerDevice> perDevice;
};

} // namespace loom::runtime

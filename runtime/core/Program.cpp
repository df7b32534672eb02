//===- Program.cpp - Building and loading programs per device -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Source goes to Device::buildFromSource, binaries to Device::loadBinary; the log of each device is
// kept for CL_PROGRAM_BUILD_LOG whatever the outcome.
//===----------------------------------------------------------------------===//
#include "core/Program.h"

#include <algorithm>

namespace loom::runtime {
namespace {

/// The frontend rejects options before compiling with one of these sentences; the API reports those
/// as CL_INVALID_BUILD_OPTIONS rather than as a failed build.
bool isOptionError(llvm::StringRef message) {
  return message.startswith("unsupported build option") || message.startswith("invalid build options") ||
         message.startswith("build option '") || message.startswith("unsupported OpenCL C version");
}

} // namespace

Program::Program(Context &context, std::string source)
    : Object(ObjectKind::Program), context(&context), fromSource(true), source(std::move(source)) {
  for (PlatformDevice *device : context.devices) {
    PerDevice entry;
    entry.device = device;
    perDevice.push_back(std::move(entry));
  }
}

Program::Program(Context &context, std::vector<PlatformDevice *> devices,
                 std::vector<std::string> binaries)
    : Object(ObjectKind::Program), context(&context), fromSource(false) {
  for (size_t i = 0; i < devices.size(); ++i) {
    PerDevice entry;
    entry.device = devices[i];
    entry.inputBinary = std::move(binaries[i]);
    perDevice.push_back(std::move(entry));
  }
}

std::vector<std::string> Program::loadBinaries() {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::string> errors;
  for (PerDevice &entry : perDevice) {
    std::string log;
    auto loaded = entry.device->device.loadBinary(entry.inputBinary, log);
    if (!loaded) {
      std::string message = llvm::toString(loaded.takeError());
      entry.status = BuildStatus::Error;
      entry.log = log.empty() ? message : log;
      if (entry.log.find(message) == std::string::npos)
        entry.log += "\n" + message;
      errors.push_back(message.empty() ? "invalid binary" : message);
      continue;
    }
    entry.program = std::move(*loaded);
    // A loaded binary is an executable already; clBuildProgram then has nothing left to do.
    entry.status = BuildStatus::Success;
    entry.log = log;
    errors.push_back("");
  }
  return errors;
}

BuildFailure Program::build(const std::vector<PlatformDevice *> &devices, const std::string &options) {
  std::lock_guard<std::mutex> lock(mutex);
  BuildFailure failure = BuildFailure::None;
  for (PerDevice &entry : perDevice) {
    if (!devices.empty() && std::find(devices.begin(), devices.end(), entry.device) == devices.end())
      continue;
    entry.options = options;
    if (!fromSource) {
      // Binaries were loaded at creation; one that failed to load stays failed.
      if (entry.status != BuildStatus::Success)
        failure = BuildFailure::BuildFailed;
      continue;
    }
    const DeviceInfo &info = entry.device->info();
    entry.status = BuildStatus::InProgress;
    entry.program.reset();
    std::string log;
    if (!info.compilerAvailable) {
      entry.status = BuildStatus::Error;
      entry.log = info.name + " has no OpenCL C compiler";
      if (failure == BuildFailure::None)
        failure = BuildFailure::CompilerNotAvailable;
      continue;
    }
    auto built = entry.device->device.buildFromSource(source, options, log);
    if (!built) {
      std::string message = llvm::toString(built.takeError());
      entry.status = BuildStatus::Error;
      entry.log = log.empty() ? message : log;
      if (isOptionError(message))
        failure = BuildFailure::InvalidOptions;
      else if (failure != BuildFailure::InvalidOptions)
        failure = BuildFailure::BuildFailed;
      continue;
    }
    entry.program = std::move(*built);
    entry.status = BuildStatus::Success;
    entry.log = log;
  }
  return failure;
}

std::vector<PlatformDevice *> Program::devices() const {
  std::vector<PlatformDevice *> result;
  for (const PerDevice &entry : perDevice)
    result.push_back(entry.device);
  return result;
}

Program::PerDevice *Program::find(const PlatformDevice *device) {
  for (PerDevice &entry : perDevice)
    if (entry.device == device)
      return &entry;
  return nullptr;
}

const std::vector<frontend::KernelInfo> *Program::kernels() const {
  for (const PerDevice &entry : perDevice)
    if (entry.status == BuildStatus::Success && entry.program)
      return &entry.program->kernels();
  return nullptr;
}

int Program::kernelIndex(const PlatformDevice &device, const std::string &name) const {
  for (const PerDevice &entry : perDevice) {
    if (entry.device != &device || entry.status != BuildStatus::Success || !entry.program)
      continue;
    const auto &kernels = entry.program->kernels();
    for (size_t i = 0; i < kernels.size(); ++i)
      if (kernels[i].name == name)
        return static_cast<int>(i);
  }
  return -1;
}

} // namespace loom::runtime

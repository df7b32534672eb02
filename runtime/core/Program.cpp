//===- Program.cpp - Building and loading programs per device -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Source goes to Device::buildFromSource (clBuildProgram) or Device::compileObject
// (clCompileProgram), executable binaries to Device::loadBinary, compiled objects and libraries to
// Device::link (clLinkProgram); the log of each device is kept for CL_PROGRAM_BUILD_LOG whatever
// the outcome.
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

/// `sofar` after one more device failed with `message`: option errors outrank failed builds.
BuildFailure worse(BuildFailure sofar, llvm::StringRef message) {
  if (isOptionError(message))
    return BuildFailure::InvalidOptions;
  return sofar == BuildFailure::InvalidOptions ? sofar : BuildFailure::BuildFailed;
}

/// Marks `entry` failed when its device has no compiler; true then.
bool lacksCompiler(Program::PerDevice &entry, BuildFailure &failure) {
  if (entry.device->info().compilerAvailable)
    return false;
  entry.status = BuildStatus::Error;
  entry.log = entry.device->info().name + " has no OpenCL C compiler";
  if (failure == BuildFailure::None)
    failure = BuildFailure::CompilerNotAvailable;
  return true;
}

/// The compiled object or library in `bytes`, if they hold one; an error if they do but `device`
/// cannot link it.
llvm::Expected<llvm::Optional<frontend::ObjectCode>> objectIn(llvm::StringRef bytes, const Device &device) {
  auto binary = frontend::readBinary(bytes);
  if (!binary || !frontend::objectKindOf(*binary)) {
    llvm::consumeError(binary.takeError()); // The device's loader says what is wrong with it.
    return llvm::None;
  }
  auto object = frontend::readObject(*binary);
  if (!object)
    return object.takeError();
  if (llvm::Error error = device.checkObject(*object))
    return std::move(error);
  return llvm::Optional<frontend::ObjectCode>(std::move(*object));
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

Program::Program(Context &context, std::vector<PlatformDevice *> devices)
    : Object(ObjectKind::Program), context(&context), fromSource(false) {
  for (PlatformDevice *device : devices) {
    PerDevice entry;
    entry.device = device;
    perDevice.push_back(std::move(entry));
  }
}

BinaryType Program::PerDevice::binaryType() const {
  if (object)
    return object->kind == frontend::ObjectKind::Library ? BinaryType::Library : BinaryType::Object;
  return program ? BinaryType::Executable : BinaryType::None;
}

std::string Program::PerDevice::binary() const {
  if (object)
    return frontend::writeObject(*object);
  return program ? program->binary() : std::string();
}

std::vector<std::string> Program::loadBinaries() {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::string> errors;
  for (PerDevice &entry : perDevice) {
    auto object = objectIn(entry.inputBinary, entry.device->device);
    if (!object) {
      entry.status = BuildStatus::Error;
      entry.log = llvm::toString(object.takeError());
      errors.push_back(entry.log);
      continue;
    }
    if (*object) {
      // An object or library is ready to link.
      entry.status = BuildStatus::Success;
      entry.log = (*object)->log;
      entry.object = std::move(**object);
      errors.push_back("");
      continue;
    }
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
    if (llvm::Error error = startAutorunKernels(entry)) {
      entry.program.reset();
      entry.status = BuildStatus::Error;
      entry.log = log + llvm::toString(std::move(error));
      errors.push_back(entry.log);
      continue;
    }
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
      // Binaries were loaded at creation; one that failed to load stays failed, and an object or
      // library is linked, not built (the spec wants an executable binary here).
      if (entry.status != BuildStatus::Success || entry.object) {
        if (entry.object)
          entry.log = ("the binary is a compiled " + frontend::objectKindName(entry.object->kind) +
                       ": link it with clLinkProgram")
                          .str();
        failure = BuildFailure::BuildFailed;
      }
      continue;
    }
    entry.status = BuildStatus::InProgress;
    entry.program.reset();
    entry.object.reset();
    if (lacksCompiler(entry, failure))
      continue;
    std::string log;
    auto built = entry.device->device.buildFromSource(source, options, log);
    if (!built) {
      std::string message = llvm::toString(built.takeError());
      entry.status = BuildStatus::Error;
      entry.log = log.empty() ? message : log;
      failure = worse(failure, message);
      continue;
    }
    entry.program = std::move(*built);
    entry.status = BuildStatus::Success;
    entry.log = log;
    if (llvm::Error error = startAutorunKernels(entry)) {
      entry.program.reset();
      entry.status = BuildStatus::Error;
      entry.log += llvm::toString(std::move(error));
      failure = BuildFailure::BuildFailed;
    }
  }
  return failure;
}

BuildFailure Program::compile(const std::vector<PlatformDevice *> &devices, const std::string &options,
                              const std::vector<frontend::EmbeddedHeader> &headers) {
  std::lock_guard<std::mutex> lock(mutex);
  BuildFailure failure = BuildFailure::None;
  for (PerDevice &entry : perDevice) {
    if (!devices.empty() && std::find(devices.begin(), devices.end(), entry.device) == devices.end())
      continue;
    entry.options = options;
    entry.program.reset();
    entry.object.reset();
    if (lacksCompiler(entry, failure))
      continue;
    std::string log;
    auto object = entry.device->device.compileObject({source, "program.cl", options, headers}, log);
    if (!object) {
      std::string message = llvm::toString(object.takeError());
      entry.status = BuildStatus::Error;
      entry.log = log.empty() ? message : log;
      failure = worse(failure, message);
      continue;
    }
    entry.log = log;
    entry.object = std::move(*object);
    entry.status = BuildStatus::Success;
  }
  return failure;
}

BuildFailure Program::link(const std::vector<Program *> &inputs, const frontend::LinkOptions &options) {
  std::lock_guard<std::mutex> lock(mutex);
  BuildFailure failure = BuildFailure::None;
  for (PerDevice &entry : perDevice) {
    std::vector<frontend::ObjectCode> objects;
    for (Program *input : inputs) {
      std::lock_guard<std::mutex> inputLock(input->mutex);
      if (PerDevice *from = input->find(entry.device); from && from->object)
        objects.push_back(*from->object);
    }
    if (objects.empty())
      continue; // No input has code for this device: no executable for it, as the spec says.
    entry.options = options.text;
    std::string log;
    if (options.createLibrary) {
      auto library = frontend::linkLibrary(objects, options);
      if (library)
        entry.object = std::move(*library);
      else
        log = llvm::toString(library.takeError());
    } else {
      auto program = entry.device->device.link(objects, options.text, log);
      if (program) {
        entry.program = std::move(*program);
        if (llvm::Error error = startAutorunKernels(entry)) {
          entry.program.reset();
          log += llvm::toString(std::move(error));
        }
      } else {
        std::string message = llvm::toString(program.takeError());
        if (log.empty())
          log = message;
      }
    }
    entry.log = log;
    entry.status = entry.object || entry.program ? BuildStatus::Success : BuildStatus::Error;
    if (entry.status == BuildStatus::Error)
      failure = BuildFailure::BuildFailed;
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

std::vector<const frontend::KernelInfo *> Program::hostKernels() const {
  std::vector<const frontend::KernelInfo *> found;
  if (const auto *all = kernels())
    for (const frontend::KernelInfo &kernel : *all)
      if (!kernel.autorun)
        found.push_back(&kernel);
  return found;
}

const DeviceProgram *Program::builtFor(const PlatformDevice &device) const {
  for (const PerDevice &entry : perDevice)
    if (entry.device == &device && entry.status == BuildStatus::Success && entry.program)
      return entry.program.get();
  return nullptr;
}

int Program::kernelIndex(const PlatformDevice &device, const std::string &name) const {
  if (const DeviceProgram *program = builtFor(device)) {
    const auto &kernels = program->kernels();
    for (size_t i = 0; i < kernels.size(); ++i)
      if (kernels[i].name == name)
        return static_cast<int>(i);
  }
  return -1;
}

const frontend::KernelInfo *Program::kernelOn(const PlatformDevice &device, const std::string &name) const {
  const int index = kernelIndex(device, name);
  return index < 0 ? nullptr : &builtFor(device)->kernels()[size_t(index)];
}

llvm::Error Program::startAutorunKernels(PerDevice &entry) {
  const std::vector<frontend::KernelInfo> &kernels = entry.program->kernels();
  for (unsigned k = 0; k < kernels.size(); ++k) {
    const frontend::KernelInfo &kernel = kernels[k];
    if (!kernel.autorun)
      continue;
    // Its arguments are its channels (the compiler allows it no others).
    std::vector<ArgValue> args;
    for (const frontend::KernelArg &arg : kernel.args) {
      if (arg.programFifo.empty())
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "autorun kernel '" + kernel.name + "' takes argument '" + arg.name +
                                           "', which nothing could set");
      auto pipe = programFifo(arg);
      if (!pipe)
        return pipe.takeError();
      ArgValue &value = args.emplace_back();
      value.kind = ArgValue::Kind::Buffer;
      value.buffer = (*pipe)->allocation();
    }
    // A single work-item, or one work-group of its required size.
    NDRange range;
    if (kernel.reqdWorkGroupSize[0]) {
      range.dims = 3;
      for (unsigned d = 0; d < 3; ++d)
        range.global[d] = range.local[d] = kernel.reqdWorkGroupSize[d];
    }
    Context &notified = *context;
    auto failed = [&notified, name = kernel.name](const std::string &why) {
      notified.report("autorun kernel '" + name + "' stopped: " + why);
    };
    if (llvm::Error error = entry.device->device.startAutorun(*entry.program, k, std::move(args), range, failed))
      return error;
  }
  return llvm::Error::success();
}

llvm::Expected<Buffer *> Program::programFifo(const frontend::KernelArg &arg) {
  Ref<Buffer> &pipe = fifos[arg.programFifo];
  if (!pipe) {
    const PipeShape shape{uint32_t(arg.fifoPacketBytes), uint32_t(arg.fifoDepth)};
    auto created = Buffer::createPipe(*context, MemFlag::ReadWrite | MemFlag::HostNoAccess, shape);
    if (!created) {
      fifos.erase(arg.programFifo);
      return created.takeError();
    }
    pipe = Ref<Buffer>(*created);
    // No handle: only the program's kernels see the pipe.
    (*created)->releaseUser();
    (*created)->retire();
  }
  if (pipe->pipe.packetBytes != arg.fifoPacketBytes)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "channel or pipe '" + arg.programFifo + "' has packets of " +
                                       std::to_string(pipe->pipe.packetBytes) + " bytes on one device and " +
                                       std::to_string(arg.fifoPacketBytes) + " on another");
  return pipe.get();
}

} // namespace loom::runtime

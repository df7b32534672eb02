//===- Kernel.cpp - Kernel argument storage -------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Argument values as Device::launch takes them (ArgValue); the API layer checked index, size and
// kind before calling in. And how large a work-group the kernel takes on each device.
//===----------------------------------------------------------------------===//
#include "core/Kernel.h"
#include "core/Platform.h"

#include <algorithm>

namespace loom::runtime {

Kernel::Kernel(Program &program, frontend::KernelInfo info)
    : Object(ObjectKind::Kernel), program(&program), info(std::move(info)) {
  args.resize(this->info.args.size());
  argBuffers.resize(this->info.args.size());
  isSet.assign(this->info.args.size(), false);
  program.attachedKernels.fetch_add(1);
}

Kernel::~Kernel() { program->attachedKernels.fetch_sub(1); }

uint64_t Kernel::maxWorkGroupSize(const PlatformDevice &device) const {
  const frontend::KernelInfo *built = program->kernelOn(device, info.name);
  const uint64_t bound = built ? built->maxWorkGroupSize : info.maxWorkGroupSize;
  const uint64_t deviceMax = device.info().maxWorkGroupSize;
  return bound ? std::min(deviceMax, bound) : deviceMax;
}

void Kernel::setScalar(unsigned index, const void *bytes, size_t size) {
  std::lock_guard<std::mutex> lock(mutex);
  ArgValue value;
  value.kind = ArgValue::Kind::Scalar;
  const auto *begin = static_cast<const uint8_t *>(bytes);
  value.bytes.assign(begin, begin + size);
  args[index] = std::move(value);
  argBuffers[index] = Ref<Buffer>();
  isSet[index] = true;
}

void Kernel::setBuffer(unsigned index, Buffer *buffer) {
  std::lock_guard<std::mutex> lock(mutex);
  ArgValue value;
  value.kind = ArgValue::Kind::Buffer;
  if (buffer)
    value.buffer = buffer->allocation();
  args[index] = std::move(value);
  argBuffers[index] = Ref<Buffer>(buffer);
  isSet[index] = true;
}

void Kernel::setLocal(unsigned index, size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  ArgValue value;
  value.kind = ArgValue::Kind::Local;
  value.localBytes = bytes;
  args[index] = std::move(value);
  argBuffers[index] = Ref<Buffer>();
  isSet[index] = true;
}

uint64_t Kernel::localMemBytes() const {
  std::lock_guard<std::mutex> lock(mutex);
  uint64_t bytes = info.localVariableBytes;
  for (const ArgValue &arg : args)
    if (arg.kind == ArgValue::Kind::Local)
      bytes += arg.localBytes;
  return bytes;
}

void Kernel::copyArgsFrom(const Kernel &source) {
  std::scoped_lock lock(mutex, source.mutex);
  args = source.args;
  argBuffers = source.argBuffers;
  isSet = source.isSet;
}

bool Kernel::allArgsSet() const {
  std::lock_guard<std::mutex> lock(mutex);
  for (bool set : isSet)
    if (!set)
      return false;
  return true;
}

std::string Kernel::argumentConflict() const {
  std::lock_guard<std::mutex> lock(mutex);
  auto writes = [&](unsigned i) { return info.args[i].access == frontend::AccessQualifier::WriteOnly; };
  for (unsigned r = 0; r < info.args.size(); ++r) {
    if (!info.args[r].isPipe() || writes(r) || !argBuffers[r].get())
      continue;
    for (unsigned w = 0; w < info.args.size(); ++w)
      if (info.args[w].isPipe() && writes(w) && argBuffers[w].get() == argBuffers[r].get())
        return "kernel '" + info.name + "' would read pipe argument " + std::to_string(r) + " ('" +
               info.args[r].name + "') and write argument " + std::to_string(w) + " ('" + info.args[w].name +
               "'), which hold the same pipe object: a kernel cannot read from and write to the same pipe";
  }
  return {};
}

Kernel::Snapshot Kernel::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex);
  Snapshot snapshot;
  snapshot.args = args;
  for (const Ref<Buffer> &buffer : argBuffers)
    if (buffer)
      snapshot.buffers.push_back(buffer);
  return snapshot;
}

} // namespace loom::runtime

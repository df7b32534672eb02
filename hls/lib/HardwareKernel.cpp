//===- HardwareKernel.cpp - JSON form of a kernel's hardware interface ----===//
// SPDX-License-Identifier: Apache-2.0
//
// The interface travels in the binary's .loom.meta section; sim/ and the runtime read it back.
//===----------------------------------------------------------------------===//
#include "loom/hls/HardwareKernel.h"

#include "llvm/ADT/Optional.h"

namespace loom::hls {
namespace {

/// llvm::json has no unsigned mapping; reads a non-negative integer that fits in `unsigned`.
bool mapUnsigned(const llvm::json::Value &value, llvm::StringRef key, unsigned &out,
                 llvm::json::Path path) {
  const auto *object = value.getAsObject();
  llvm::Optional<int64_t> number;
  if (object)
    number = object->getInteger(key);
  if (!number || *number < 0 || *number > UINT32_MAX) {
    path.field(key).report("expected a non-negative integer");
    return false;
  }
  out = static_cast<unsigned>(*number);
  return true;
}

} // namespace

llvm::json::Value toJSON(const MemoryPort &port) {
  return llvm::json::Object{{"kind", port.kind == MemoryPort::Kind::Load ? "load" : "store"},
                            {"bytes", port.bytes},
                            {"location", port.location}};
}

bool fromJSON(const llvm::json::Value &value, MemoryPort &port, llvm::json::Path path) {
  llvm::json::ObjectMapper map(value, path);
  std::string kind;
  if (!map || !map.map("kind", kind) || !mapUnsigned(value, "bytes", port.bytes, path) ||
      !map.map("location", port.location))
    return false;
  if (kind != "load" && kind != "store") {
    path.field("kind").report("expected \"load\" or \"store\"");
    return false;
  }
  if (port.bytes != 1 && port.bytes != 2 && port.bytes != 4 && port.bytes != 8) {
    path.field("bytes").report("expected 1, 2, 4 or 8");
    return false;
  }
  port.kind = kind == "load" ? MemoryPort::Kind::Load : MemoryPort::Kind::Store;
  return true;
}

llvm::json::Value toJSON(const HardwareKernel &kernel) {
  return llvm::json::Object{
      {"kernel", kernel.kernelName},
      {"top", kernel.topModule},
      {"args", kernel.numArgs},
      {"work_group_args", kernel.workGroupArgs},
      {"ports", kernel.ports},
      {"ii", kernel.initiationInterval},
      {"depth", kernel.pipelineDepth},
      {"area", llvm::json::Object{{"luts", kernel.area.luts},
                                  {"ffs", kernel.area.ffs},
                                  {"dsps", kernel.area.dsps}}}};
}

bool fromJSON(const llvm::json::Value &value, HardwareKernel &kernel, llvm::json::Path path) {
  llvm::json::ObjectMapper map(value, path);
  if (!map || !map.map("kernel", kernel.kernelName) || !map.map("top", kernel.topModule) ||
      !mapUnsigned(value, "args", kernel.numArgs, path) || !map.map("ports", kernel.ports) ||
      !mapUnsigned(value, "ii", kernel.initiationInterval, path) ||
      !mapUnsigned(value, "depth", kernel.pipelineDepth, path))
    return false;
  kernel.workGroupArgs = value.getAsObject()->getBoolean("work_group_args").value_or(false);
  if (const auto *area = value.getAsObject()->getObject("area")) {
    kernel.area.luts = area->getInteger("luts").value_or(0);
    kernel.area.ffs = area->getInteger("ffs").value_or(0);
    kernel.area.dsps = area->getInteger("dsps").value_or(0);
  }
  return true;
}

} // namespace loom::hls

//===- HardwareKernel.cpp - JSON form of a kernel's hardware interface ----===//
// SPDX-License-Identifier: Apache-2.0
//
// The interface travels in the binary's .loom.meta section; sim/ and the runtime read it back.
//===----------------------------------------------------------------------===//
#include "loom/hls/HardwareKernel.h"

#include "llvm/Support/FormatVariadic.h"

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

llvm::json::Value toJSON(const LoopReport &loop) {
  return llvm::json::Object{{"location", loop.location}, {"depth", loop.depth},   {"ii", loop.ii},
                            {"bound_by", loop.boundBy},  {"bound_at", loop.boundAt}, {"trip_count", loop.tripCount},
                            {"requested_ii", loop.requestedII}, {"ivdep", loop.ivdep},
                            {"interleaved", loop.interleaved}};
}

bool fromJSON(const llvm::json::Value &value, LoopReport &loop, llvm::json::Path path) {
  llvm::json::ObjectMapper map(value, path);
  return map && map.map("location", loop.location) && mapUnsigned(value, "depth", loop.depth, path) &&
         mapUnsigned(value, "ii", loop.ii, path) && map.map("bound_by", loop.boundBy) &&
         map.map("bound_at", loop.boundAt) && mapUnsigned(value, "trip_count", loop.tripCount, path) &&
         mapUnsigned(value, "requested_ii", loop.requestedII, path) && map.map("ivdep", loop.ivdep) &&
         mapUnsigned(value, "interleaved", loop.interleaved, path);
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
      {"loops", kernel.loops},
      {"area", llvm::json::Object{{"luts", kernel.area.luts},
                                  {"ffs", kernel.area.ffs},
                                  {"dsps", kernel.area.dsps},
                                  {"rams", kernel.area.rams}}}};
}

bool fromJSON(const llvm::json::Value &value, HardwareKernel &kernel, llvm::json::Path path) {
  llvm::json::ObjectMapper map(value, path);
  if (!map || !map.map("kernel", kernel.kernelName) || !map.map("top", kernel.topModule) ||
      !mapUnsigned(value, "args", kernel.numArgs, path) || !map.map("ports", kernel.ports) ||
      !mapUnsigned(value, "ii", kernel.initiationInterval, path) ||
      !mapUnsigned(value, "depth", kernel.pipelineDepth, path))
    return false;
  kernel.workGroupArgs = value.getAsObject()->getBoolean("work_group_args").value_or(false);
  if (value.getAsObject()->get("loops") && !map.map("loops", kernel.loops))
    return false;
  if (const auto *area = value.getAsObject()->getObject("area")) {
    kernel.area.luts = area->getInteger("luts").value_or(0);
    kernel.area.ffs = area->getInteger("ffs").value_or(0);
    kernel.area.dsps = area->getInteger("dsps").value_or(0);
    kernel.area.rams = area->getInteger("rams").value_or(0);
  }
  return true;
}

llvm::Expected<std::vector<HardwareKernel>> hardwareKernelsOf(const llvm::json::Object &meta) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  const llvm::json::Array *entries = meta.getArray("kernels");
  if (!entries)
    return error("the binary's metadata lists no kernels (.loom.meta has no \"kernels\" array)");
  std::vector<HardwareKernel> kernels;
  for (size_t i = 0; i < entries->size(); ++i) {
    const llvm::json::Object *entry = (*entries)[i].getAsObject();
    llvm::StringRef name = entry ? entry->getString("name").value_or("") : "";
    const llvm::json::Value *hardware = entry ? entry->get("hardware") : nullptr;
    if (!hardware)
      return error(llvm::formatv("kernel '{0}' has no hardware interface in the binary's metadata: it "
                                 "was not compiled for a board",
                                 name));
    HardwareKernel kernel;
    llvm::json::Path::Root root("hardware");
    if (!fromJSON(*hardware, kernel, root))
      return error(llvm::formatv("bad hardware interface of kernel '{0}': {1}", name,
                                 llvm::toString(root.getError())));
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

} // namespace loom::hls

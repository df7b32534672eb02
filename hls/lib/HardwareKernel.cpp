//===- HardwareKernel.cpp - JSON form of a kernel's hardware interface ----===//
// SPDX-License-Identifier: Apache-2.0
//
// The interface travels in the binary's .loom.meta section; sim/ and the runtime read it back.
//===----------------------------------------------------------------------===//
#include "loom/hls/HardwareKernel.h"

#include "llvm/Support/FormatVariadic.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>

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

constexpr MemoryPort::AtomicOp AtomicOps[] = {
    MemoryPort::AtomicOp::Add, MemoryPort::AtomicOp::Sub,  MemoryPort::AtomicOp::And,
    MemoryPort::AtomicOp::Or,  MemoryPort::AtomicOp::Xor,  MemoryPort::AtomicOp::Xchg,
    MemoryPort::AtomicOp::Min, MemoryPort::AtomicOp::Max,  MemoryPort::AtomicOp::UMin,
    MemoryPort::AtomicOp::UMax, MemoryPort::AtomicOp::CmpXchg};

const char *kindName(MemoryPort::Kind kind) {
  switch (kind) {
  case MemoryPort::Kind::Load: return "load";
  case MemoryPort::Kind::Store: return "store";
  case MemoryPort::Kind::Atomic: return "atomic";
  }
  return "?";
}

/// The W-bit value `value` (W = 8 * bytes) sign-extended to 64 bits.
int64_t signExtend(uint64_t value, unsigned bytes) {
  const unsigned shift = 64 - 8 * bytes;
  return int64_t(value << shift) >> shift;
}

} // namespace

const char *atomicOpName(MemoryPort::AtomicOp op) {
  switch (op) {
  case MemoryPort::AtomicOp::Add: return "add";
  case MemoryPort::AtomicOp::Sub: return "sub";
  case MemoryPort::AtomicOp::And: return "and";
  case MemoryPort::AtomicOp::Or: return "or";
  case MemoryPort::AtomicOp::Xor: return "xor";
  case MemoryPort::AtomicOp::Xchg: return "xchg";
  case MemoryPort::AtomicOp::Min: return "min";
  case MemoryPort::AtomicOp::Max: return "max";
  case MemoryPort::AtomicOp::UMin: return "umin";
  case MemoryPort::AtomicOp::UMax: return "umax";
  case MemoryPort::AtomicOp::CmpXchg: return "cmpxchg";
  }
  return "?";
}

std::string describeKind(const MemoryPort &port) {
  if (port.kind == MemoryPort::Kind::Atomic)
    return std::string("atomic ") + atomicOpName(port.op);
  if (port.lines())
    return llvm::formatv("{0} of {1}-byte elements in {2}-byte lines", kindName(port.kind), port.elementBytes,
                         port.bytes)
        .str();
  return kindName(port.kind);
}

uint64_t applyAtomic(MemoryPort::AtomicOp op, unsigned bytes, uint64_t old, uint64_t operand, uint64_t compare) {
  const uint64_t mask = bytes >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1;
  old &= mask;
  operand &= mask;
  uint64_t result = old;
  switch (op) {
  case MemoryPort::AtomicOp::Add: result = old + operand; break;
  case MemoryPort::AtomicOp::Sub: result = old - operand; break;
  case MemoryPort::AtomicOp::And: result = old & operand; break;
  case MemoryPort::AtomicOp::Or: result = old | operand; break;
  case MemoryPort::AtomicOp::Xor: result = old ^ operand; break;
  case MemoryPort::AtomicOp::Xchg: result = operand; break;
  case MemoryPort::AtomicOp::Min: result = signExtend(operand, bytes) < signExtend(old, bytes) ? operand : old; break;
  case MemoryPort::AtomicOp::Max: result = signExtend(operand, bytes) > signExtend(old, bytes) ? operand : old; break;
  case MemoryPort::AtomicOp::UMin: result = std::min(old, operand); break;
  case MemoryPort::AtomicOp::UMax: result = std::max(old, operand); break;
  case MemoryPort::AtomicOp::CmpXchg: result = old == (compare & mask) ? operand : old; break;
  }
  return result & mask;
}

llvm::json::Value toJSON(const MemoryPort &port) {
  llvm::json::Object object{{"kind", kindName(port.kind)}, {"bytes", port.bytes}, {"location", port.location}};
  if (port.kind == MemoryPort::Kind::Atomic)
    object["op"] = atomicOpName(port.op);
  if (port.lines())
    object["element_bytes"] = port.elementBytes;
  if (port.forwards())
    object["forwards_from"] = port.forwardsFrom;
  return std::move(object);
}

bool fromJSON(const llvm::json::Value &value, MemoryPort &port, llvm::json::Path path) {
  llvm::json::ObjectMapper map(value, path);
  std::string kind;
  if (!map || !map.map("kind", kind) || !mapUnsigned(value, "bytes", port.bytes, path) ||
      !map.map("location", port.location))
    return false;
  bool known = false;
  for (auto candidate : {MemoryPort::Kind::Load, MemoryPort::Kind::Store, MemoryPort::Kind::Atomic})
    if (kind == kindName(candidate)) {
      port.kind = candidate;
      known = true;
    }
  if (!known) {
    path.field("kind").report("expected \"load\", \"store\" or \"atomic\"");
    return false;
  }
  const unsigned maxBytes = port.kind == MemoryPort::Kind::Atomic ? 8 : MaxPortBytes;
  if (!llvm::isPowerOf2_32(port.bytes) || port.bytes > maxBytes) {
    if (port.kind == MemoryPort::Kind::Atomic)
      path.field("bytes").report("expected 1, 2, 4 or 8");
    else
      path.field("bytes").report("expected a power of two up to 64");
    return false;
  }
  if (const auto *object = value.getAsObject(); object && object->get("element_bytes")) {
    if (port.kind == MemoryPort::Kind::Atomic || !mapUnsigned(value, "element_bytes", port.elementBytes, path))
      return false;
    if (!llvm::isPowerOf2_32(port.elementBytes) || port.elementBytes > port.bytes) {
      path.field("element_bytes").report("expected a power of two up to the port's bytes");
      return false;
    }
  }
  if (const auto *object = value.getAsObject(); object && object->get("forwards_from")) {
    if (port.kind != MemoryPort::Kind::Load || port.lines()) {
      path.field("forwards_from").report("only a plain load port forwards from a store port");
      return false;
    }
    if (!mapUnsigned(value, "forwards_from", port.forwardsFrom, path))
      return false;
  }
  if (port.kind == MemoryPort::Kind::Atomic) {
    std::string op;
    if (!map.map("op", op))
      return false;
    const auto *found =
        llvm::find_if(AtomicOps, [&](MemoryPort::AtomicOp candidate) { return op == atomicOpName(candidate); });
    if (found == std::end(AtomicOps)) {
      path.field("op").report("expected an atomic operation: add, sub, and, or, xor, xchg, min, max, umin, umax "
                              "or cmpxchg");
      return false;
    }
    port.op = *found;
  }
  return true;
}

llvm::json::Value toJSON(const LoopReport &loop) {
  return llvm::json::Object{{"location", loop.location}, {"depth", loop.depth},   {"innermost", loop.innermost}, {"ii", loop.ii},
                            {"bound_by", loop.boundBy},  {"bound_at", loop.boundAt}, {"trip_count", loop.tripCount}, {"latency", loop.latency},
                            {"requested_ii", loop.requestedII}, {"ivdep", loop.ivdep}, {"ivdep_arrays", loop.ivdepArrays}, {"over_work_items", loop.overWorkItems},
                            {"interleaved", loop.interleaved}, {"max_interleaving", loop.maxInterleaving},
                            {"work_items_inside", loop.workItemsInside},
                            {"overlaps_from", loop.overlapsFrom}, {"inner_loops_wait_for", loop.innerLoopsWaitFor},
                            {"global_bytes", int64_t(loop.globalBytes)}, {"shared_port_reads", loop.sharedPortReads}};
}

bool fromJSON(const llvm::json::Value &value, LoopReport &loop, llvm::json::Path path) {
  llvm::json::ObjectMapper map(value, path);
  return map && map.map("location", loop.location) && mapUnsigned(value, "depth", loop.depth, path) &&
         map.mapOptional("innermost", loop.innermost) &&
         mapUnsigned(value, "ii", loop.ii, path) && map.map("bound_by", loop.boundBy) &&
         map.map("bound_at", loop.boundAt) && mapUnsigned(value, "trip_count", loop.tripCount, path) &&
         (!value.getAsObject()->get("latency") || mapUnsigned(value, "latency", loop.latency, path)) &&
         mapUnsigned(value, "requested_ii", loop.requestedII, path) && map.map("ivdep", loop.ivdep) &&
         map.mapOptional("ivdep_arrays", loop.ivdepArrays) &&
         map.mapOptional("over_work_items", loop.overWorkItems) &&
         mapUnsigned(value, "interleaved", loop.interleaved, path) &&
         mapUnsigned(value, "max_interleaving", loop.maxInterleaving, path) &&
         (!value.getAsObject()->get("work_items_inside") ||
          mapUnsigned(value, "work_items_inside", loop.workItemsInside, path)) &&
         map.mapOptional("overlaps_from", loop.overlapsFrom) &&
         map.mapOptional("inner_loops_wait_for", loop.innerLoopsWaitFor) &&
         map.mapOptional("global_bytes", loop.globalBytes) &&
         (!value.getAsObject()->get("shared_port_reads") ||
          mapUnsigned(value, "shared_port_reads", loop.sharedPortReads, path));
}

namespace {
/// PipePort's operation flags by their names in the JSON.
std::array<std::pair<const char *, bool PipePort::*>, 5> pipeOperations() {
  return {{{"transfers", &PipePort::transfers},
           {"reserves", &PipePort::reserves},
           {"slots", &PipePort::slots},
           {"commits", &PipePort::commits},
           {"queries", &PipePort::queries}}};
}
} // namespace

llvm::json::Value toJSON(const PipePort &port) {
  llvm::json::Array operations;
  for (auto [name, flag] : pipeOperations())
    if (port.*flag)
      operations.push_back(name);
  return llvm::json::Object{{"arg", port.arg},
                            {"direction", port.writes ? "write" : "read"},
                            {"packet_bytes", port.packetBytes},
                            {"location", port.location},
                            {"name", port.name},
                            {"operations", std::move(operations)}};
}

bool fromJSON(const llvm::json::Value &value, PipePort &port, llvm::json::Path path) {
  llvm::json::ObjectMapper map(value, path);
  std::string direction;
  if (!map || !mapUnsigned(value, "arg", port.arg, path) || !map.map("direction", direction) ||
      !mapUnsigned(value, "packet_bytes", port.packetBytes, path) || !map.map("location", port.location) ||
      !map.mapOptional("name", port.name))
    return false;
  if (direction != "read" && direction != "write") {
    path.field("direction").report("expected \"read\" or \"write\"");
    return false;
  }
  port.writes = direction == "write";
  std::vector<std::string> operations;
  if (!map.map("operations", operations))
    return false;
  for (const std::string &operation : operations) {
    const auto all = pipeOperations();
    const auto *known = llvm::find_if(all, [&](const auto &entry) { return operation == entry.first; });
    if (known == all.end()) {
      path.field("operations").report("expected transfers, reserves, slots, commits or queries");
      return false;
    }
    port.*(known->second) = true;
  }
  if (port.packetBytes == 0 || port.packetBytes > MaxPipePacketBytes) {
    static_assert(MaxPipePacketBytes == 1024, "the report names the largest packet");
    path.field("packet_bytes").report("expected 1 to 1024");
    return false;
  }
  return true;
}

unsigned HardwareKernel::argWords() const {
  unsigned words = 0;
  for (unsigned index = 0; index < numArgs; ++index)
    words += argBytes(index) / 8;
  return words;
}

namespace {

/// Sizes by argument number as [[argument number, bytes], ...].
template <typename Bytes> llvm::json::Array argumentSizes(const std::map<unsigned, Bytes> &sizes) {
  llvm::json::Array pairs;
  for (const auto &[index, bytes] : sizes)
    pairs.push_back(llvm::json::Array{int64_t(index), int64_t(bytes)});
  return pairs;
}

/// Reads argumentSizes' `field` of `object` (absent: none) into `sizes`, each size one `valid` accepts.
template <typename Bytes>
bool readArgumentSizes(const llvm::json::Object &object, llvm::StringRef field, unsigned numArgs,
                       std::map<unsigned, Bytes> &sizes, llvm::function_ref<bool(int64_t)> valid,
                       llvm::json::Path path) {
  sizes.clear();
  const llvm::json::Array *pairs = object.getArray(field);
  for (size_t i = 0; pairs && i < pairs->size(); ++i) {
    const llvm::json::Array *pair = (*pairs)[i].getAsArray();
    llvm::Optional<int64_t> index = pair && pair->size() == 2 ? (*pair)[0].getAsInteger() : llvm::None;
    llvm::Optional<int64_t> bytes = pair && pair->size() == 2 ? (*pair)[1].getAsInteger() : llvm::None;
    if (!index || !bytes || *index < 0 || *index >= numArgs || !valid(*bytes)) {
      path.field(field).index(i).report("expected [argument number, bytes]");
      return false;
    }
    sizes[unsigned(*index)] = Bytes(*bytes);
  }
  return true;
}

} // namespace

llvm::json::Value toJSON(const HardwareKernel &kernel) {
  return llvm::json::Object{
      {"kernel", kernel.kernelName},
      {"top", kernel.topModule},
      {"args", kernel.numArgs},
      {"work_group_args", kernel.workGroupArgs},
      {"printf_buffer", kernel.printfBuffer},
      {"work_group_loops", kernel.workGroupLoops},
      {"max_group_items", kernel.maxGroupItems},
      {"compute_units", kernel.computeUnits},
      {"local_args", argumentSizes(kernel.localArgBytes)},
      {"wide_args", argumentSizes(kernel.wideArgBytes)},
      {"ports", kernel.ports},
      {"pipe_ports", kernel.pipePorts},
      {"ii", kernel.initiationInterval},
      {"depth", kernel.pipelineDepth},
      {"global_bytes", int64_t(kernel.globalBytes)},
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
  for (size_t p = 0; p < kernel.ports.size(); ++p) {
    const MemoryPort &port = kernel.ports[p];
    if (port.forwards() && (port.forwardsFrom >= kernel.ports.size() ||
                            kernel.ports[port.forwardsFrom].kind != MemoryPort::Kind::Store ||
                            kernel.ports[port.forwardsFrom].lines() || kernel.ports[port.forwardsFrom].bytes != port.bytes)) {
      path.field("ports").index(p).field("forwards_from").report("expected a plain store port of the same size");
      return false;
    }
  }
  kernel.pipePorts.clear();
  if (value.getAsObject()->get("pipe_ports") && !map.map("pipe_ports", kernel.pipePorts))
    return false;
  for (size_t s = 0; s < kernel.pipePorts.size(); ++s)
    if (kernel.pipePorts[s].arg >= kernel.numArgs) {
      path.field("pipe_ports").index(s).field("arg").report("expected one of the kernel's arguments");
      return false;
    }
  kernel.workGroupArgs = value.getAsObject()->getBoolean("work_group_args").value_or(false);
  kernel.printfBuffer = value.getAsObject()->getBoolean("printf_buffer").value_or(false);
  kernel.workGroupLoops = value.getAsObject()->getBoolean("work_group_loops").value_or(false);
  kernel.maxGroupItems = 0;
  if (value.getAsObject()->get("max_group_items") && !mapUnsigned(value, "max_group_items", kernel.maxGroupItems, path))
    return false;
  if (kernel.workGroupLoops && kernel.maxGroupItems == 0) {
    path.field("work_group_loops").report("expected a positive max_group_items");
    return false;
  }
  kernel.computeUnits = 1;
  if (value.getAsObject()->get("compute_units") && !mapUnsigned(value, "compute_units", kernel.computeUnits, path))
    return false;
  const unsigned ownPorts = kernel.computeUnits ? kernel.ports.size() / kernel.computeUnits : 0;
  const unsigned shareArgs = kernel.computeUnits > 1 ? ComputeUnitShareArgs * kernel.computeUnits : 0;
  if (!kernel.computeUnits || ownPorts * kernel.computeUnits != kernel.ports.size() ||
      kernel.numArgs < shareArgs + (kernel.workGroupArgs ? WorkGroupArgs : 0) + (kernel.printfBuffer ? 1 : 0)) {
    path.field("compute_units").report("expected a positive count that divides the ports, with its arguments");
    return false;
  }
  if (value.getAsObject()->get("loops") && !map.map("loops", kernel.loops))
    return false;
  if (!map.mapOptional("global_bytes", kernel.globalBytes))
    return false;
  const llvm::json::Object &object = *value.getAsObject();
  if (!readArgumentSizes(object, "local_args", kernel.numArgs, kernel.localArgBytes,
                         [](int64_t bytes) { return bytes > 0; }, path) ||
      !readArgumentSizes(object, "wide_args", kernel.numArgs, kernel.wideArgBytes,
                         [](int64_t bytes) { return bytes > 8 && bytes <= MaxArgumentBytes && bytes % 8 == 0; },
                         path))
    return false;
  if (const auto *area = value.getAsObject()->getObject("area")) {
    kernel.area.luts = area->getInteger("luts").value_or(0);
    kernel.area.ffs = area->getInteger("ffs").value_or(0);
    kernel.area.dsps = area->getInteger("dsps").value_or(0);
    kernel.area.rams = area->getInteger("rams").value_or(0);
  }
  return true;
}

std::vector<uint64_t> computeUnitShares(unsigned units, unsigned dims, const std::array<uint64_t, 3> &offset,
                                        const std::array<uint64_t, 3> &global, const std::array<uint64_t, 3> &local) {
  if (units <= 1)
    return {};
  // Split the dimension with the most work-groups (the outermost of equals).
  auto groupsOf = [&](unsigned d) { return local[d] ? (global[d] + local[d] - 1) / local[d] : 0; };
  unsigned split = 0;
  for (unsigned d = 1; d < dims && d < 3; ++d)
    if (groupsOf(d) >= groupsOf(split))
      split = d;
  // Blocks of whole work-groups, long enough along dimension 0 for a line of memory, unless that
  // leaves a unit without one.
  const uint64_t groups = groupsOf(split);
  uint64_t groupsPerBlock = 1;
  if (split == 0 && local[0] && local[0] < MinComputeUnitBlockItems)
    groupsPerBlock = std::clamp<uint64_t>(groups / units, 1, llvm::divideCeil(MinComputeUnitBlockItems, local[0]));
  const uint64_t block = groupsPerBlock * local[split], blocks = llvm::divideCeil(groups, groupsPerBlock);
  std::vector<uint64_t> args;
  for (unsigned u = 0; u < units; ++u) {
    // Unit u's blocks are u, u + units, ...; the last block of the range may be short.
    uint64_t items = 0;
    for (uint64_t b = u; b < blocks; b += units)
      items += std::min(global[split], (b + 1) * block) - b * block;
    std::array<uint64_t, 3> first = offset, size = global, blockOf = global, skip{};
    for (unsigned d = dims; d < 3; ++d)
      first[d] = 0, size[d] = blockOf[d] = 1;
    first[split] = offset[split] + u * block;
    size[split] = items;
    blockOf[split] = block;
    skip[split] = (units - 1) * block;
    for (const auto &field : {first, size, blockOf, skip})
      args.insert(args.end(), field.begin(), field.end());
  }
  return args;
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

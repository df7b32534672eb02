//===- BareHarness.cpp - The model in a bare C++ loop, for benchmarks ------===//
// SPDX-License-Identifier: Apache-2.0
//
// The reference the board model's overhead is measured against: the same port handling as the
// KernelRunner, a fixed latency, memory accessed directly, no SystemC and no TLM.
//===----------------------------------------------------------------------===//
#include "loom/sim/BoardSimulation.h"

#include "PortResponses.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>

namespace loom::sim {

llvm::Expected<uint64_t> runBare(const LoadedModel &model, const hls::HardwareKernel &kernel,
                                 unsigned kernelIndex, MemoryRegion memory,
                                 llvm::ArrayRef<uint64_t> args,
                                 const std::array<uint64_t, 3> &offset,
                                 const std::array<uint64_t, 3> &size, unsigned latencyCycles,
                                 uint64_t watchdogCycles) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
  };
  if (kernelIndex >= model.kernelCount())
    return fail(llvm::formatv("no kernel {0} in the model", kernelIndex));
  if (args.size() != kernel.argWords())
    return fail(llvm::formatv("kernel '{0}' takes {1} argument words, not {2}", kernel.kernelName,
                              kernel.argWords(), args.size()));
  if (!kernel.pipePorts.empty())
    return fail(llvm::formatv("kernel '{0}' has pipe arguments, which the bare harness does not "
                              "connect",
                              kernel.kernelName));
  ModelInstance instance(model, kernelIndex);
  if (!instance)
    return fail("the model could not create a kernel instance");

  const unsigned numPorts = static_cast<unsigned>(kernel.ports.size());
  std::vector<LoomPort> ports(numPorts, LoomPort{});
  PortResponses responses(kernel.ports);
  for (auto &port : ports)
    port.req_ready = 1;
  const uint64_t latency = latencyCycles ? latencyCycles : 1;

  uint64_t off[3] = {offset[0], offset[1], offset[2]};
  uint64_t sz[3] = {size[0], size[1], size[2]};
  instance.start(args.data(), off, sz);
  uint64_t cycle = 0, lastProgress = 0;
  for (;;) {
    bool progress = responses.deliver(ports, cycle);
    const int state = instance.cycle(ports.data(), nullptr);
    const bool done = state & LOOM_CYCLE_DONE;
    progress |= (state & LOOM_CYCLE_RETIRED) != 0;
    for (unsigned p = 0; p < numPorts; ++p) {
      if (!ports[p].req_fire)
        continue;
      progress = true;
      const uint64_t address = ports[p].req_addr;
      const unsigned bytes = kernel.ports[p].bytes;
      if (address >= memory.size || bytes > memory.size - address)
        return fail(llvm::formatv("{0} accessed device address {1:x} outside device memory",
                                  describePort(kernel, p), address));
      const hls::MemoryPort &info = kernel.ports[p];
      uint64_t data[LOOM_PORT_WORDS] = {};
      if (info.readsData())
        std::memcpy(data, memory.base + address, bytes);
      if (info.kind == hls::MemoryPort::Kind::Atomic) {
        // An atomic writes the operation's result and answers with the old value (read above).
        uint64_t written = hls::applyAtomic(info.op, bytes, data[0], ports[p].req_wdata[0], ports[p].req_cmp);
        std::memcpy(memory.base + address, &written, bytes);
      } else if (info.strobes()) {
        const auto *written = reinterpret_cast<const unsigned char *>(ports[p].req_wdata);
        for (unsigned b = 0; b < bytes; ++b)
          if ((ports[p].req_strobe >> b) & 1)
            memory.base[address + b] = written[b];
      } else if (info.writesData()) {
        std::memcpy(memory.base + address, ports[p].req_wdata, bytes);
      }
      responses.schedule(p, cycle, latency, data);
    }
    ++cycle;
    if (done)
      return cycle;
    if (progress)
      lastProgress = cycle;
    else if (cycle - lastProgress >= watchdogCycles)
      return fail(llvm::formatv("kernel '{0}' made no progress for {1} cycles",
                                kernel.kernelName, watchdogCycles));
  }
}

} // namespace loom::sim

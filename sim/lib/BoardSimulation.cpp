//===- BoardSimulation.cpp - The kernel runner and the SystemC world -------===//
// SPDX-License-Identifier: Apache-2.0
//
// The KernelRunner is a TLM-2.0 initiator whose SC_THREAD runs one launch at a time. It steps the
// model in a plain C++ loop (an sc_clock-driven model costs 5-8x more) and keeps its own cycle count
// as the quantum keeper's local time offset: a fired request calls b_transport directly with that
// offset, and its response is queued on the port for the cycle the memory model answers. The thread
// yields to the SystemC kernel only when a quantum is used up and at the end of the launch.
//
// run() drives SystemC from outside: it notifies the runner's launch event and calls sc_start(),
// which returns by starvation once the runner waits for the next launch. So one elaboration serves
// every launch of the process.
//===----------------------------------------------------------------------===//
#include "loom/sim/BoardSimulation.h"

#include "GlobalMemory.h"
#include "PortResponses.h"

#include "llvm/Support/FormatVariadic.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace loom::sim {
namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// One launch, handed from run() to the runner thread and back.
struct Launch {
  const LoadedModel *model = nullptr;
  const hls::HardwareKernel *kernel = nullptr;
  unsigned kernelIndex = 0;
  std::vector<uint64_t> args;
  uint64_t offset[3] = {0, 0, 0};
  uint64_t size[3] = {1, 1, 1};
  const SimulationOptions *options = nullptr;
  sc_core::sc_time period;
  double cycleNs = 0;
  uint64_t memorySize = 0;

  bool finished = false;
  std::string error;
  RunStats stats;
};

class KernelRunner : public sc_core::sc_module {
public:
  tlm_utils::simple_initiator_socket<KernelRunner> socket;
  sc_core::sc_event launchEvent;
  Launch *launch = nullptr;

  SC_HAS_PROCESS(KernelRunner);
  explicit KernelRunner(sc_core::sc_module_name name)
      : sc_core::sc_module(name), socket("socket") {
    SC_THREAD(thread);
  }

private:
  void thread() {
    for (;;) {
      wait(launchEvent);
      if (!launch)
        continue;
      execute(*launch);
      launch->finished = true;
    }
  }

  void execute(Launch &l);
};

void KernelRunner::execute(Launch &l) {
  const hls::HardwareKernel &kernel = *l.kernel;
  const unsigned numPorts = static_cast<unsigned>(kernel.ports.size());
  l.stats = RunStats();
  l.stats.ports.assign(numPorts, PortStats());

  ModelInstance instance(*l.model, l.kernelIndex);
  if (!instance) {
    l.error = llvm::formatv("the model could not create an instance of kernel '{0}'",
                            kernel.kernelName);
    return;
  }
  std::vector<LoomPort> ports(numPorts, LoomPort{});
  PortResponses responses(kernel.ports);
  // Per-port facts, and every per-port array, used through raw pointers in the loop: after the virtual
  // b_transport call the compiler would reload each vector's data pointer on every access.
  struct PortInfo {
    hls::MemoryPort::Kind kind;
    hls::MemoryPort::AtomicOp op;
    unsigned bytes;
    bool strobes;
  };
  std::vector<PortInfo> infos(numPorts);
  for (unsigned p = 0; p < numPorts; ++p) {
    infos[p] = {kernel.ports[p].kind, kernel.ports[p].op, kernel.ports[p].bytes, kernel.ports[p].strobes()};
    // The board accepts a request every cycle; contention shows up as response delay instead.
    ports[p].req_ready = 1;
  }
  LoomPort *const port = ports.data();
  const PortInfo *const info = infos.data();
  PortStats *const stats = l.stats.ports.data();

  uint64_t data[LOOM_PORT_WORDS] = {};
  unsigned char enables[LOOM_PORT_WORDS * 8];
  tlm::tlm_generic_payload trans;
  trans.set_data_ptr(reinterpret_cast<unsigned char *>(data));
  trans.set_byte_enable_ptr(nullptr);
  trans.set_dmi_allowed(false);

  tlm_utils::tlm_quantumkeeper keeper;
  keeper.reset();
  const uint64_t quantum = l.options->quantumCycles ? l.options->quantumCycles : 1;
  const uint64_t watchdog = l.options->watchdogCycles;
  // Time arithmetic stays in sc_time's inline integer operations (sc_time::from_value and the
  // double conversions are out-of-line library calls): this loop runs per cycle and per request.
  const sc_core::sc_time::value_type periodValue = l.period.value();
  sc_core::sc_time local = sc_core::SC_ZERO_TIME; // == sinceSync x period
  sc_core::sc_time::value_type lastDelay = 0;
  uint64_t lastWait = 1;

  // One transaction of `bytes` at `address` through `data`, issued now: the cycles until the memory
  // answers (>= 1), or 0 for an address outside device memory.
  auto transport = [&](tlm::tlm_command command, uint64_t address, unsigned bytes) -> uint64_t {
    trans.set_command(command);
    trans.set_address(address);
    trans.set_data_length(bytes);
    trans.set_streaming_width(bytes);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    // The request's time is the quantum keeper's local offset; the keeper itself is only told at
    // a synchronisation.
    const sc_core::sc_time &issued = local;
    sc_core::sc_time delay = issued;
    socket->b_transport(trans, delay);
    if (trans.is_response_error())
      return 0;
    // The response is usable from the first cycle boundary at or after the memory's answer.
    const sc_core::sc_time::value_type memoryDelay = (delay - issued).value();
    // Most requests see the same delay (latency, no bank wait): reuse the last division.
    if (memoryDelay != lastDelay) {
      lastDelay = memoryDelay;
      lastWait = memoryDelay <= periodValue ? 1 : (memoryDelay + periodValue - 1) / periodValue;
    }
    return lastWait;
  };

  instance.start(l.args.data(), l.offset, l.size);
  uint64_t cycle = 0, sinceSync = 0, lastProgress = 0;
  for (;;) {
    bool progress = responses.deliver(ports, cycle);

    int done = instance.cycle(port);

    for (unsigned p = 0; p < numPorts; ++p) {
      if (!port[p].req_fire)
        continue;
      progress = true;
      const uint64_t address = port[p].req_addr;
      const unsigned bytes = info[p].bytes;
      uint64_t wait = 0;
      if (info[p].kind == hls::MemoryPort::Kind::Atomic) {
        // The memory reads, applies the operation and writes back in this one step, which no other
        // request can come between (the simulation is single-threaded): the read-modify-write is
        // atomic. Its timing is a read and then a write of the same bytes issued together: the bank
        // is busy for both, and the old value returns when the write is done, as a memory
        // controller acknowledges a read-modify-write once it is complete.
        data[0] = 0;
        wait = transport(tlm::TLM_READ_COMMAND, address, bytes);
        const uint64_t old = data[0];
        if (wait) {
          data[0] = hls::applyAtomic(info[p].op, bytes, old, port[p].req_wdata[0], port[p].req_cmp);
          const uint64_t writeWait = transport(tlm::TLM_WRITE_COMMAND, address, bytes);
          wait = writeWait ? std::max(wait, writeWait) : 0;
        }
        data[0] = old;
      } else if (info[p].kind == hls::MemoryPort::Kind::Load) {
        wait = transport(tlm::TLM_READ_COMMAND, address, bytes);
      } else {
        std::memcpy(data, port[p].req_wdata, bytes);
        if (info[p].strobes) {
          for (unsigned b = 0; b < bytes; ++b)
            enables[b] = (port[p].req_strobe >> b) & 1 ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
          trans.set_byte_enable_ptr(enables);
          trans.set_byte_enable_length(bytes);
        }
        wait = transport(tlm::TLM_WRITE_COMMAND, address, bytes);
        trans.set_byte_enable_ptr(nullptr);
      }
      if (!wait) {
        l.stats.cycles = cycle + 1;
        l.error = llvm::formatv("kernel '{0}': {1} accessed device address {2:x} ({3} bytes), "
                                "outside device memory of {4} bytes, at cycle {5}",
                                kernel.kernelName, describePort(kernel, p), address, bytes,
                                l.memorySize, cycle);
        return;
      }
      responses.schedule(p, cycle, wait, data);
      ++stats[p].requests;
      stats[p].bytes += bytes;
    }

    ++cycle;
    ++sinceSync;
    local += l.period;
    if (done)
      break;
    if (progress) {
      lastProgress = cycle;
    } else if (cycle - lastProgress >= watchdog) {
      std::string portState;
      for (unsigned p = 0; p < numPorts; ++p)
        portState += llvm::formatv("; {0} has {1} requests, {2} responses, {3} outstanding",
                                   describePort(kernel, p), l.stats.ports[p].requests,
                                   responses.delivered(p),
                                   l.stats.ports[p].requests - responses.delivered(p))
                         .str();
      if (numPorts == 0)
        portState = "; the kernel has no memory ports";
      l.stats.cycles = cycle;
      l.error = llvm::formatv("kernel '{0}' made no progress for {1} cycles (at cycle {2}: no "
                              "request fired, no response was delivered, done stayed low){3}",
                              kernel.kernelName, watchdog, cycle, portState);
      return;
    }
    if (sinceSync >= quantum) {
      if (l.options->cancelled && l.options->cancelled()) {
        l.stats.cycles = cycle;
        l.error = llvm::formatv("kernel '{0}' was cancelled at cycle {1}", kernel.kernelName, cycle);
        return;
      }
      keeper.set(local);
      keeper.sync();
      sinceSync = 0;
      local = sc_core::SC_ZERO_TIME;
    }
  }
  keeper.set(local);
  keeper.sync();
  l.stats.cycles = cycle;
  l.stats.simulatedNs = static_cast<double>(cycle) * l.cycleNs;
}

/// The one elaboration of the process: the memory target and the runner, bound once.
struct World {
  GlobalMemory memory{"global_memory"};
  KernelRunner runner{"kernel_runner"};
  World() { runner.socket.bind(memory.socket); }
};

std::mutex &worldMutex() {
  static std::mutex mutex;
  return mutex;
}

/// Created on first use and never destroyed: SystemC cannot re-elaborate, and tearing the simulation
/// context down at exit only risks ordering problems with its own statics.
llvm::Expected<World *> world() {
  static World *instance = nullptr;
  static std::string failure;
  if (instance)
    return instance;
  if (!failure.empty())
    return error(failure);
  // SystemC prints a banner to stdout when its context is created, unless told not to.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  try {
    auto *created = new World;
    sc_core::sc_start(sc_core::SC_ZERO_TIME); // elaborate; the runner now waits for a launch
    instance = created;
  } catch (const std::exception &e) {
    failure = std::string("cannot elaborate the SystemC board model: ") + e.what();
    return error(failure);
  }
  return instance;
}

} // namespace

std::string describePort(const hls::HardwareKernel &kernel, unsigned port) {
  if (port >= kernel.ports.size())
    return llvm::formatv("port {0}", port).str();
  const auto &p = kernel.ports[port];
  const std::string kind = hls::describeKind(p);
  if (p.location.empty())
    return llvm::formatv("port {0} ({1})", port, kind).str();
  return llvm::formatv("port {0} ({1} at {2})", port, kind, p.location).str();
}

struct BoardSimulation::Impl {
  board::Board board;
  const LoadedModel *model = nullptr;
  std::vector<hls::HardwareKernel> kernels;
  MemoryRegion memory;
  SimulationOptions options;
};

BoardSimulation::BoardSimulation(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
BoardSimulation::~BoardSimulation() = default;

const board::Board &BoardSimulation::board() const { return impl_->board; }
const std::vector<hls::HardwareKernel> &BoardSimulation::kernels() const { return impl_->kernels; }
SimulationOptions &BoardSimulation::options() { return impl_->options; }

llvm::Expected<std::unique_ptr<BoardSimulation>>
BoardSimulation::create(const board::Board &board, const LoadedModel &model,
                        std::vector<hls::HardwareKernel> kernels, MemoryRegion memory,
                        SimulationOptions options) {
  if (kernels.size() != model.kernelCount())
    return error(llvm::formatv("the program describes {0} kernels but its simulation model has {1}",
                               kernels.size(), model.kernelCount()));
  for (unsigned k = 0; k < kernels.size(); ++k)
    if (kernels[k].kernelName != model.kernelName(k))
      return error(llvm::formatv("kernel {0} is '{1}' in the program but '{2}' in its simulation "
                                 "model",
                                 k, kernels[k].kernelName, model.kernelName(k)));
  if (board.clockMHz <= 0)
    return error(llvm::formatv("board '{0}' has no valid clock frequency", board.name));
  auto impl = std::make_unique<Impl>();
  impl->board = board;
  impl->model = &model;
  impl->kernels = std::move(kernels);
  impl->memory = memory;
  impl->options = std::move(options);
  return std::unique_ptr<BoardSimulation>(new BoardSimulation(std::move(impl)));
}

llvm::Expected<RunStats> BoardSimulation::run(unsigned kernelIndex, llvm::ArrayRef<uint64_t> args,
                                              const std::array<uint64_t, 3> &offset,
                                              const std::array<uint64_t, 3> &size) {
  if (kernelIndex >= impl_->kernels.size())
    return error(llvm::formatv("no kernel {0}: the program has {1}", kernelIndex,
                               impl_->kernels.size()));
  const hls::HardwareKernel &kernel = impl_->kernels[kernelIndex];
  if (args.size() != kernel.numArgs)
    return error(llvm::formatv("kernel '{0}' takes {1} arguments but the launch gives {2}",
                               kernel.kernelName, kernel.numArgs, args.size()));

  std::lock_guard<std::mutex> lock(worldMutex());
  auto w = world();
  if (!w)
    return w.takeError();
  Launch launch;
  launch.model = impl_->model;
  launch.kernel = &kernel;
  launch.kernelIndex = kernelIndex;
  launch.args.assign(args.begin(), args.end());
  for (unsigned d = 0; d < 3; ++d) {
    launch.offset[d] = offset[d];
    launch.size[d] = size[d];
  }
  launch.options = &impl_->options;
  launch.period = sc_core::sc_time(impl_->board.cycleNs(), sc_core::SC_NS);
  launch.cycleNs = impl_->board.cycleNs();
  launch.memorySize = impl_->memory.size;
  tlm::tlm_global_quantum::instance().set(launch.period *
                                          static_cast<double>(impl_->options.quantumCycles));

  (*w)->memory.configure(impl_->memory, impl_->board, launch.period);
  (*w)->runner.launch = &launch;
  (*w)->runner.launchEvent.notify(sc_core::SC_ZERO_TIME);
  try {
    sc_core::sc_start(); // returns by starvation once the runner waits for the next launch
  } catch (const std::exception &e) {
    (*w)->runner.launch = nullptr;
    return error(llvm::formatv("the SystemC board model failed: {0}", e.what()));
  }
  (*w)->runner.launch = nullptr;
  if (!launch.finished)
    return error(llvm::formatv("the SystemC board model stopped before kernel '{0}' finished",
                               kernel.kernelName));
  if (!launch.error.empty())
    return error(launch.error);
  return std::move(launch.stats);
}

} // namespace loom::sim

// libsystemc.so refers to sc_main for programs that let SystemC own main(). Loom's programs keep
// their own main and drive sc_start() themselves; this definition satisfies the reference and says
// so if anything ever calls it.
int sc_main(int, char **) {
  std::fprintf(stderr, "loom: sc_main is not an entry point of this program\n");
  return 1;
}

//===- BoardSimulation.cpp - The kernel runner and the SystemC world -------===//
// SPDX-License-Identifier: Apache-2.0
//
// The KernelRunner is a TLM-2.0 initiator whose SC_THREAD steps the running launches, one model
// instance per launch, in a plain C++ loop (an sc_clock-driven model costs 5-8x more). It keeps its
// own cycle count as the quantum keeper's local time offset: a fired request calls b_transport
// directly with that offset, and its response is queued on the port for the cycle the memory model
// answers. The thread yields to the SystemC kernel only when a quantum is used up and when the step
// ends (a launch ended, or the caller's interruption).
//
// simulate() drives SystemC from outside: it notifies the runner's step event and calls sc_start(),
// which returns by starvation once the runner waits for the next step. So one elaboration serves
// every launch of the process, and board time goes on from one step to the next.
//===----------------------------------------------------------------------===//
#include "loom/sim/BoardSimulation.h"

#include "GlobalMemory.h"
#include "PipeFifo.h"
#include "PortResponses.h"

#include "llvm/Support/FormatVariadic.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
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

static_assert(LOOM_PACKET_WORDS * 8 == hls::MaxPipePacketBytes, "a LoomStream carries the largest packet");

/// One operation a launch's pipe port fired at a cycle's edge, applied with the others once every
/// launch has stepped.
struct PipeOperation {
  /// In the order they apply within a cycle: a reservation claims at the position it was offered,
  /// a slot write reaches a reservation made in the same cycle, a commit ends it after both.
  enum class Kind : uint8_t { Reserve, SlotWrite, Transfer, Commit };
  Kind kind;
  PipeFifo *fifo;
  /// The launch (its id, kernel and first cycle) and its kernel's pipe port, for a failure.
  uint64_t launch;
  const hls::HardwareKernel *kernel;
  uint64_t startCycle;
  unsigned port;
  bool writes;
  uint32_t count; ///< Reserve: the packets claimed.
  /// Reserve: the base offered; slot write: the slot; read transfer: the position offered; commit:
  /// the reservation's base.
  uint32_t position;
  /// Slot writes and write transfers: where the packet starts in the cycle's packet words (a packet
  /// is up to a KiB, too much to copy with every operation).
  size_t packetWord;
};

/// "the write pipe 'out' (argument 0, at produce.cl:2:3)", for diagnoses.
std::string describePipe(const hls::PipePort &pipe) {
  return llvm::formatv("the {0} pipe {1}(argument {2}{3})", pipe.writes ? "write" : "read",
                       pipe.name.empty() ? "" : "'" + pipe.name + "' ", pipe.arg,
                       pipe.location.empty() ? "" : ", at " + pipe.location);
}

/// A launch waiting for its kernel's circuit.
struct LaunchRequest {
  uint64_t id = 0;
  unsigned kernelIndex = 0;
  std::vector<uint64_t> args;
  std::vector<PipeFifo *> pipes; ///< One per pipe port of the kernel.
  uint64_t offset[3] = {0, 0, 0};
  uint64_t size[3] = {1, 1, 1};
  bool autorun = false; ///< Starts again each time it finishes.
};

/// Per-port facts the cycle loop reads.
struct PortInfo {
  hls::MemoryPort::Kind kind;
  hls::MemoryPort::AtomicOp op;
  unsigned bytes;
  bool strobes;
};

/// A launch on its kernel's circuit: the model instance and its ports' state.
struct RunningLaunch {
  LaunchRequest request;
  const hls::HardwareKernel *kernel = nullptr;
  std::unique_ptr<ModelInstance> instance;
  std::vector<LoomPort> ports;
  std::vector<PortInfo> infos;
  std::vector<LoomStream> streams; ///< One per pipe port, beside request.pipes.
  PortResponses responses;
  RunStats stats;
  uint64_t startCycle = 0;   ///< The board cycle of its first step.
  uint64_t lastProgress = 0; ///< The board cycle after its last request or response.

  RunningLaunch(LaunchRequest r, const hls::HardwareKernel &k)
      : request(std::move(r)), kernel(&k), ports(k.ports.size(), LoomPort{}),
        streams(k.pipePorts.size(), LoomStream{}), responses(k.ports) {
    stats.ports.assign(k.ports.size(), PortStats());
    for (const hls::MemoryPort &port : k.ports)
      infos.push_back({port.kind, port.op, port.bytes, port.strobes()});
    // The board accepts a request every cycle; contention shows up as response delay instead.
    for (LoomPort &port : ports)
      port.req_ready = 1;
  }
};

/// One call of simulate(), handed to the runner thread and back.
struct Step {
  BoardSimulation::Impl *simulation = nullptr;
  const std::function<bool()> *interrupted = nullptr;
  std::vector<EndedLaunch> ended;
  bool finished = false;
};

} // namespace

struct BoardSimulation::Impl {
  board::Board board;
  const LoadedModel *model = nullptr;
  std::vector<hls::HardwareKernel> kernels;
  MemoryRegion memory;
  SimulationOptions options;
  sc_core::sc_time period;
  uint64_t serial = 0; ///< Tells this simulation from the process's earlier ones.

  /// At most one launch per kernel runs; the others wait, per kernel, in start order.
  std::vector<std::unique_ptr<RunningLaunch>> running;
  std::vector<std::deque<LaunchRequest>> waiting;
  uint64_t cycle = 0; ///< Board cycles simulated so far, over every launch.
  uint64_t lastBoardProgress = 0; ///< The cycle after the last progress of any launch, or a start.
  std::map<uint64_t, std::unique_ptr<PipeFifo>> pipes;
  bool idle = false; ///< See BoardSimulation::idle().

  bool idInUse(uint64_t id) const {
    for (const auto &r : running)
      if (r->request.id == id)
        return true;
    for (const auto &queue : waiting)
      for (const LaunchRequest &w : queue)
        if (w.id == id)
          return true;
    return false;
  }

  /// What a waiting launch's ports and pipes hold, for a diagnosis: "; port 0 (...) has ...".
  std::string describeState(const RunningLaunch &launch) const {
    const hls::HardwareKernel &kernel = *launch.kernel;
    std::string state;
    for (unsigned p = 0; p < launch.ports.size(); ++p)
      state += llvm::formatv("; {0} has {1} requests, {2} responses, {3} outstanding", describePort(kernel, p),
                             launch.stats.ports[p].requests, launch.responses.delivered(p),
                             launch.stats.ports[p].requests - launch.responses.delivered(p))
                   .str();
    for (size_t s = 0; s < launch.streams.size(); ++s) {
      const PipeFifo &fifo = *launch.request.pipes[s];
      state += llvm::formatv("; {0} holds {1} of {2} packets", describePipe(kernel.pipePorts[s]), fifo.fill(),
                             fifo.depth)
                   .str();
    }
    if (state.empty())
      state = "; the kernel has no memory ports";
    return state;
  }

  /// Puts `request` on its kernel's circuit now; false (with `failure` set) if no instance exists.
  bool begin(LaunchRequest request, std::string &failure) {
    const hls::HardwareKernel &kernel = kernels[request.kernelIndex];
    auto launch = std::make_unique<RunningLaunch>(std::move(request), kernel);
    launch->instance = std::make_unique<ModelInstance>(*model, launch->request.kernelIndex);
    if (!*launch->instance) {
      failure = llvm::formatv("the model could not create an instance of kernel '{0}'",
                              kernel.kernelName);
      return false;
    }
    launch->instance->start(launch->request.args.data(), launch->request.offset,
                            launch->request.size);
    launch->startCycle = launch->lastProgress = lastBoardProgress = cycle;
    running.push_back(std::move(launch));
    return true;
  }

  /// Ends every launch still waiting for its kernel's circuit with `why`.
  void endWaiting(const std::string &why, std::vector<EndedLaunch> &ended) {
    for (auto &queue : waiting) {
      for (const LaunchRequest &request : queue)
        ended.push_back({request.id, why, RunStats()});
      queue.clear();
    }
  }

  /// Starts the next waiting launch of `kernelIndex`, if any; failures to start end them.
  void beginNext(unsigned kernelIndex, std::vector<EndedLaunch> &ended) {
    auto &queue = waiting[kernelIndex];
    while (!queue.empty()) {
      LaunchRequest next = std::move(queue.front());
      queue.pop_front();
      const uint64_t id = next.id;
      std::string failure;
      if (begin(std::move(next), failure))
        return;
      ended.push_back({id, failure, RunStats()});
    }
  }

  /// Steps the running launches until `step` should end, calling `memory` for their requests.
  void advance(Step &step, tlm::tlm_fw_transport_if<> &target);
};

namespace {

class KernelRunner : public sc_core::sc_module {
public:
  tlm_utils::simple_initiator_socket<KernelRunner> socket;
  sc_core::sc_event stepEvent;
  Step *step = nullptr;

  SC_HAS_PROCESS(KernelRunner);
  explicit KernelRunner(sc_core::sc_module_name name)
      : sc_core::sc_module(name), socket("socket") {
    SC_THREAD(thread);
  }

private:
  void thread() {
    for (;;) {
      wait(stepEvent);
      if (!step)
        continue;
      step->simulation->advance(*step, *socket.operator->());
      step->finished = true;
    }
  }
};

} // namespace

void BoardSimulation::Impl::advance(Step &step, tlm::tlm_fw_transport_if<> &target) {
  uint64_t data[LOOM_PORT_WORDS] = {};
  unsigned char enables[LOOM_PORT_WORDS * 8];
  tlm::tlm_generic_payload trans;
  trans.set_data_ptr(reinterpret_cast<unsigned char *>(data));
  trans.set_byte_enable_ptr(nullptr);
  trans.set_dmi_allowed(false);

  tlm_utils::tlm_quantumkeeper keeper;
  keeper.reset();
  const uint64_t quantum = options.quantumCycles ? options.quantumCycles : 1;
  const uint64_t watchdog = options.watchdogCycles;
  const double cycleNs = board.cycleNs();
  // Time arithmetic stays in sc_time's inline integer operations (sc_time::from_value and the
  // double conversions are out-of-line library calls): this loop runs per cycle and per request.
  const sc_core::sc_time::value_type periodValue = period.value();
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
    target.b_transport(trans, delay);
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

  // Ends running launch `index` (its kernel's next launch takes the circuit).
  auto end = [&](size_t index, std::string failure) {
    RunningLaunch &launch = *running[index];
    launch.stats.cycles = cycle + 1 - launch.startCycle;
    launch.stats.simulatedNs = static_cast<double>(launch.stats.cycles) * cycleNs;
    step.ended.push_back({launch.request.id, std::move(failure), std::move(launch.stats)});
    const unsigned kernelIndex = launch.request.kernelIndex;
    running.erase(running.begin() + std::ptrdiff_t(index));
    beginNext(kernelIndex, step.ended);
  };

  // A pipe's FIFO is sampled at the start of a cycle: its operations apply once every launch has
  // stepped, so a packet pushed is offered from the next cycle on, whatever order launches step in.
  std::vector<PipeOperation> operations;
  std::vector<uint64_t> packetWords;
  // Records stream s's operations of `launch` fired at this cycle's edge; true if any.
  auto record = [&](const RunningLaunch &launch, size_t s) {
    const LoomStream &stream = launch.streams[s];
    if (!stream.fire && !stream.reserve_fire && !stream.slot_fire && !stream.commit_fire)
      return false;
    PipeFifo *fifo = launch.request.pipes[s];
    const bool writes = launch.kernel->pipePorts[s].writes;
    auto add = [&](PipeOperation::Kind kind, uint32_t position, const uint64_t *packet) -> PipeOperation & {
      PipeOperation &op = operations.emplace_back();
      op.kind = kind;
      op.fifo = fifo;
      op.launch = launch.request.id;
      op.kernel = launch.kernel;
      op.startCycle = launch.startCycle;
      op.port = static_cast<unsigned>(s);
      op.writes = writes;
      op.count = 0;
      op.position = position;
      op.packetWord = packetWords.size();
      if (packet)
        packetWords.insert(packetWords.end(), packet, packet + (fifo->packetBytes + 7) / 8);
      return op;
    };
    if (stream.reserve_fire)
      add(PipeOperation::Kind::Reserve, stream.reserve_base, nullptr).count = stream.reserve_count;
    if (stream.slot_fire)
      add(PipeOperation::Kind::SlotWrite, stream.slot, stream.slot_data);
    // A read takes the packet offered: at readNext, whose low bits offer() put in reserve_base.
    if (stream.fire)
      add(PipeOperation::Kind::Transfer, writes ? 0 : stream.reserve_base, writes ? stream.out_data : nullptr);
    if (stream.commit_fire)
      add(PipeOperation::Kind::Commit, stream.commit_base, nullptr);
    return true;
  };
  // Fails launch `id` (running, or ended in this cycle without a failure) with `why`.
  auto fail = [&](uint64_t id, std::string why) {
    for (size_t i = 0; i < running.size(); ++i)
      if (running[i]->request.id == id)
        return end(i, std::move(why));
    for (EndedLaunch &ended : step.ended)
      if (ended.id == id && ended.error.empty())
        ended.error = std::move(why);
  };
  // Applies this cycle's operations, kind by kind; an operation the FIFO refuses fails its launch.
  auto applyOperations = [&] {
    std::vector<uint64_t> failed;
    for (auto kind : {PipeOperation::Kind::Reserve, PipeOperation::Kind::SlotWrite, PipeOperation::Kind::Transfer,
                      PipeOperation::Kind::Commit})
      for (const PipeOperation &op : operations) {
        if (op.kind != kind || llvm::is_contained(failed, op.launch))
          continue;
        llvm::Error err = [&]() -> llvm::Error {
          const uint64_t *packet = packetWords.data() + op.packetWord;
          PipeFifo &fifo = *op.fifo;
          switch (op.kind) {
          case PipeOperation::Kind::Reserve:
            return fifo.reserve(op.count, op.writes, op.position).takeError();
          case PipeOperation::Kind::SlotWrite:
            return fifo.writeSlot(op.position, packet);
          case PipeOperation::Kind::Transfer:
            return op.writes ? fifo.push(packet) : fifo.pop(nullptr, op.position);
          case PipeOperation::Kind::Commit:
            return fifo.commit(op.position, op.writes);
          }
          return llvm::Error::success();
        }();
        if (!err)
          continue;
        failed.push_back(op.launch);
        fail(op.launch, llvm::formatv("kernel '{0}': {1}: {2}, at cycle {3}", op.kernel->kernelName,
                                      describePipe(op.kernel->pipePorts[op.port]), llvm::toString(std::move(err)),
                                      cycle - op.startCycle));
      }
    operations.clear();
    packetWords.clear();
  };

  uint64_t sinceSync = 0;
  while (!running.empty()) {
    for (size_t i = 0; i < running.size(); ++i) {
      RunningLaunch &launch = *running[i];
      const hls::HardwareKernel &kernel = *launch.kernel;
      const unsigned numPorts = static_cast<unsigned>(launch.ports.size());
      // Every per-port array through raw pointers: after the virtual b_transport call the compiler
      // would reload each vector's data pointer on every access.
      LoomPort *const port = launch.ports.data();
      const PortInfo *const info = launch.infos.data();
      PortStats *const stats = launch.stats.ports.data();

      bool progress = launch.responses.deliver(launch.ports, cycle);
      LoomStream *const stream = launch.streams.data();
      for (size_t s = 0; s < launch.streams.size(); ++s)
        launch.request.pipes[s]->offer(kernel.pipePorts[s].writes, stream[s]);
      const int state = launch.instance->cycle(port, stream);
      const bool done = state & LOOM_CYCLE_DONE;
      progress |= (state & LOOM_CYCLE_RETIRED) != 0;
      for (size_t s = 0; s < launch.streams.size(); ++s)
        progress |= record(launch, s);
      std::string failure;
      for (unsigned p = 0; p < numPorts && failure.empty(); ++p) {
        if (!port[p].req_fire)
          continue;
        progress = true;
        const uint64_t address = port[p].req_addr;
        const unsigned bytes = info[p].bytes;
        uint64_t wait = 0;
        if (info[p].kind == hls::MemoryPort::Kind::Atomic) {
          // The memory reads, applies the operation and writes back in this one step, which no
          // other request can come between (the simulation is single-threaded): the
          // read-modify-write is atomic. Its timing is a read and then a write of the same bytes
          // issued together: the bank is busy for both, and the old value returns when the write is
          // done, as a memory controller acknowledges a read-modify-write once it is complete.
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
          failure = llvm::formatv("kernel '{0}': {1} accessed device address {2:x} ({3} bytes), "
                                  "outside device memory of {4} bytes, at cycle {5}",
                                  kernel.kernelName, describePort(kernel, p), address, bytes,
                                  memory.size, cycle - launch.startCycle);
          break;
        }
        launch.responses.schedule(p, cycle, wait, data);
        ++stats[p].requests;
        stats[p].bytes += bytes;
      }
      if (failure.empty() && done && launch.request.autorun) {
        // Its next run takes the circuit at once, as a fresh launch (same id).
        LaunchRequest again = launch.request;
        const uint64_t id = again.id;
        running.erase(running.begin() + std::ptrdiff_t(i--));
        if (!begin(std::move(again), failure))
          step.ended.push_back({id, failure, RunStats()});
        continue;
      }
      if (!failure.empty() || done) {
        end(i--, std::move(failure));
        continue;
      }
      if (progress) {
        launch.lastProgress = lastBoardProgress = cycle + 1;
      } else if (launch.streams.empty() && cycle + 1 - launch.lastProgress >= watchdog) {
        // A kernel without pipes waits for nothing but itself and memory.
        end(i--, llvm::formatv("kernel '{0}' made no progress for {1} cycles (at cycle {2}: no "
                               "request fired, no response was delivered, no work-item finished, done stayed low){3}",
                               kernel.kernelName, watchdog, cycle + 1 - launch.startCycle,
                               describeState(launch)));
        continue;
      }
    }
    // Only a quiet board is looked at further (the launches are not walked every cycle).
    const uint64_t quiet = cycle + 1 - lastBoardProgress;
    const bool onlyAutorun = quiet >= std::min(options.autorunIdleCycles, watchdog) &&
                             llvm::all_of(running, [](const auto &launch) { return launch->request.autorun; });
    if (onlyAutorun && !running.empty() && quiet >= options.autorunIdleCycles) {
      idle = true;
      break;
    }
    // A kernel with pipes may wait for another kernel, however long that one works: it is stuck only
    // when nothing on the board moves, which is a deadlock of every kernel still waiting (autorun
    // kernels wait on, for the next launch to feed them).
    if (quiet >= watchdog && !onlyAutorun &&
        llvm::any_of(running, [](const auto &launch) { return !launch->streams.empty(); })) {
      std::string kernels;
      for (const auto &launch : running)
        kernels += llvm::formatv("\n  kernel '{0}' (at its cycle {1}){2}", launch->kernel->kernelName,
                                 cycle + 1 - launch->startCycle, describeState(*launch))
                       .str();
      const std::string diagnosis =
          llvm::formatv("deadlock: no kernel on the board made progress for {0} cycles (no request "
                        "fired, no response was delivered, no work-item finished, no packet moved "
                        "through a pipe); the kernels waiting:{1}",
                        watchdog, kernels);
      // The launches that end first start their kernels' next ones at the back: those go on.
      for (size_t index = 0, waiting = running.size(); waiting > 0; --waiting) {
        if (running[index]->request.autorun)
          ++index;
        else
          end(index, diagnosis);
      }
    }

    if (!operations.empty())
      applyOperations();

    ++cycle;
    ++sinceSync;
    local += period;
    if (!step.ended.empty())
      break;
    if (sinceSync >= quantum) {
      keeper.set(local);
      keeper.sync();
      sinceSync = 0;
      local = sc_core::SC_ZERO_TIME;
      if (options.cancelled && options.cancelled()) {
        // Everything ends: the board process is about to exit.
        endWaiting("the launch was cancelled before it started", step.ended);
        while (!running.empty())
          end(0, llvm::formatv("kernel '{0}' was cancelled at cycle {1}",
                               running.front()->kernel->kernelName,
                               cycle - running.front()->startCycle));
        break;
      }
      if (step.interrupted && *step.interrupted && (*step.interrupted)())
        break;
    }
  }
  keeper.set(local);
  keeper.sync();
}

namespace {

/// The one elaboration of the process: the memory target and the runner, bound once.
struct World {
  GlobalMemory memory{"global_memory"};
  KernelRunner runner{"kernel_runner"};
  uint64_t configuredFor = 0; ///< The serial of the simulation the memory is configured for.
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
  impl->period = sc_core::sc_time(board.cycleNs(), sc_core::SC_NS);
  impl->waiting.resize(impl->kernels.size());
  static std::atomic<uint64_t> serials{0};
  impl->serial = ++serials;
  return std::unique_ptr<BoardSimulation>(new BoardSimulation(std::move(impl)));
}

llvm::Error BoardSimulation::start(uint64_t id, unsigned kernelIndex, llvm::ArrayRef<uint64_t> args,
                                   const std::array<uint64_t, 3> &offset,
                                   const std::array<uint64_t, 3> &size,
                                   llvm::ArrayRef<PipeBinding> pipes, bool autorun) {
  Impl &sim = *impl_;
  if (kernelIndex >= sim.kernels.size())
    return error(llvm::formatv("no kernel {0}: the program has {1}", kernelIndex, sim.kernels.size()));
  const hls::HardwareKernel &kernel = sim.kernels[kernelIndex];
  if (args.size() != kernel.argWords())
    return error(llvm::formatv("kernel '{0}' takes {1} argument words but the launch gives {2}",
                               kernel.kernelName, kernel.argWords(), args.size()));
  if (sim.idInUse(id))
    return error(llvm::formatv("launch {0} is already running on the board", id));
  if (pipes.size() != kernel.pipePorts.size())
    return error(llvm::formatv("kernel '{0}' has {1} pipe arguments but the launch binds {2} pipes",
                               kernel.kernelName, kernel.pipePorts.size(), pipes.size()));
  for (size_t s = 0; s < pipes.size(); ++s) {
    const hls::PipePort &port = kernel.pipePorts[s];
    const PipeBinding &pipe = pipes[s];
    if (pipe.packetBytes != port.packetBytes || pipe.depth == 0)
      return error(llvm::formatv("kernel '{0}' argument {1} takes a pipe of {2}-byte packets, not a "
                                 "pipe of {3} packets of {4} bytes",
                                 kernel.kernelName, port.arg, port.packetBytes, pipe.depth,
                                 pipe.packetBytes));
    auto found = sim.pipes.find(pipe.id);
    if (found != sim.pipes.end() &&
        (found->second->depth != pipe.depth || found->second->packetBytes != pipe.packetBytes))
      return error(llvm::formatv("pipe {0} was bound with {1} packets of {2} bytes before, not {3} of {4}",
                                 pipe.id, found->second->depth, found->second->packetBytes, pipe.depth,
                                 pipe.packetBytes));
  }
  LaunchRequest request;
  request.id = id;
  request.kernelIndex = kernelIndex;
  request.autorun = autorun;
  request.args.assign(args.begin(), args.end());
  for (unsigned d = 0; d < 3; ++d) {
    request.offset[d] = offset[d];
    request.size[d] = size[d];
  }
  for (const PipeBinding &pipe : pipes) {
    std::unique_ptr<PipeFifo> &fifo = sim.pipes[pipe.id];
    if (!fifo)
      fifo = std::make_unique<PipeFifo>(pipe.id, pipe.depth, pipe.packetBytes);
    request.pipes.push_back(fifo.get());
  }
  sim.idle = false;
  for (const auto &running : sim.running)
    if (running->request.kernelIndex == kernelIndex) {
      sim.waiting[kernelIndex].push_back(std::move(request));
      return llvm::Error::success();
    }
  std::string failure;
  if (!sim.begin(std::move(request), failure))
    return error(failure);
  return llvm::Error::success();
}

bool BoardSimulation::idle() const { return impl_->idle; }

size_t BoardSimulation::activeLaunches() const {
  size_t active = impl_->running.size();
  for (const auto &queue : impl_->waiting)
    active += queue.size();
  return active;
}

size_t BoardSimulation::pipePackets(uint64_t id) const {
  auto found = impl_->pipes.find(id);
  return found == impl_->pipes.end() ? 0 : found->second->fill();
}

std::vector<EndedLaunch> BoardSimulation::simulate(const std::function<bool()> &interrupted) {
  Impl &sim = *impl_;
  if (sim.running.empty() || sim.idle)
    return {};
  std::lock_guard<std::mutex> lock(worldMutex());
  Step step;
  step.simulation = &sim;
  step.interrupted = &interrupted;
  // Every launch ends with the same failure when the SystemC world cannot serve them.
  auto failAll = [&](const std::string &why) {
    for (const auto &running : sim.running)
      step.ended.push_back({running->request.id, why, RunStats()});
    sim.running.clear();
    sim.endWaiting(why, step.ended);
    return std::move(step.ended);
  };
  auto w = world();
  if (!w)
    return failAll(llvm::toString(w.takeError()));
  World &world = **w;
  // The memory keeps its banks' state between calls: launches of one simulation share it.
  if (world.configuredFor != sim.serial) {
    world.memory.configure(sim.memory, sim.board, sim.period);
    world.configuredFor = sim.serial;
  }
  tlm::tlm_global_quantum::instance().set(sim.period * static_cast<double>(sim.options.quantumCycles));
  world.runner.step = &step;
  world.runner.stepEvent.notify(sc_core::SC_ZERO_TIME);
  try {
    sc_core::sc_start(); // returns by starvation once the runner waits for the next step
  } catch (const std::exception &e) {
    world.runner.step = nullptr;
    return failAll(llvm::formatv("the SystemC board model failed: {0}", e.what()));
  }
  world.runner.step = nullptr;
  if (!step.finished)
    return failAll("the SystemC board model stopped in the middle of a step");
  return std::move(step.ended);
}

llvm::Expected<RunStats> BoardSimulation::run(unsigned kernelIndex, llvm::ArrayRef<uint64_t> args,
                                              const std::array<uint64_t, 3> &offset,
                                              const std::array<uint64_t, 3> &size,
                                              llvm::ArrayRef<PipeBinding> pipes) {
  if (activeLaunches() != 0)
    return error("run() needs an idle board simulation: other launches are running");
  constexpr uint64_t RunId = 0;
  if (auto err = start(RunId, kernelIndex, args, offset, size, pipes))
    return std::move(err);
  for (;;) {
    std::vector<EndedLaunch> ended = simulate();
    if (ended.empty())
      continue;
    if (!ended.front().error.empty())
      return error(ended.front().error);
    return std::move(ended.front().stats);
  }
}

} // namespace loom::sim

// libsystemc.so refers to sc_main for programs that let SystemC own main(). Loom's programs keep
// their own main and drive sc_start() themselves; this definition satisfies the reference and says
// so if anything ever calls it.
int sc_main(int, char **) {
  std::fprintf(stderr, "loom: sc_main is not an entry point of this program\n");
  return 1;
}

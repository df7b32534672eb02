//===- PipeOperations.cpp - Pipe builtins and the deadlock watch ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "devices/cpu/PipeOperations.h"

#include "core/PipeStorage.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace loom::runtime::cpu {
namespace {

/// CLK_NULL_RESERVE_ID, as Clang's opencl-c-base.h spells it: SIZE_MAX.
constexpr uint64_t NullReservation = ~uint64_t(0);

thread_local WatchedLaunch::Thread *currentThread = nullptr;
thread_local PipeWatch *currentWatch = nullptr;

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

PipeHeader &headerOf(void *pipe) { return *static_cast<PipeHeader *>(pipe); }

/// Claims `packets` consecutive positions for writing (at the tail) or reading (at the head) once
/// all their slots are free or full; NullReservation when some are not.
uint64_t reserve(PipeHeader &pipe, uint32_t packets, bool write) {
  if (packets == 0 || packets > pipe.capacity)
    return NullReservation;
  std::atomic<uint64_t> &end = write ? pipe.tail : pipe.head;
  uint64_t position = end.load(std::memory_order_relaxed);
  for (;;) {
    bool ready = true, taken = false;
    for (uint32_t i = 0; i < packets && ready && !taken; ++i) {
      const uint64_t wanted = 2 * (position + i) + (write ? 0 : 1);
      const auto difference =
          int64_t(pipe.sequences()[(position + i) % pipe.capacity].load(std::memory_order_acquire) - wanted);
      ready = difference >= 0; // Behind: the slot still holds an unread packet, or none yet.
      taken = difference > 0;  // Ahead: another thread claimed the position.
    }
    if (!ready)
      return NullReservation;
    if (taken) {
      position = end.load(std::memory_order_relaxed);
      continue;
    }
    if (end.compare_exchange_weak(position, position + packets, std::memory_order_relaxed)) {
      pipe.reservationSizes()[position % pipe.capacity] = packets;
      return position;
    }
  }
}

/// Publishes a reservation's slots: full for readers after a write, free for writers after a read.
void commit(PipeHeader &pipe, uint64_t position, bool write) {
  const uint32_t packets = pipe.reservationSizes()[position % pipe.capacity];
  for (uint32_t i = 0; i < packets; ++i)
    pipe.sequences()[(position + i) % pipe.capacity].store(2 * (position + i) + (write ? 1 : 2 * uint64_t(pipe.capacity)),
                                                           std::memory_order_release);
  pipe.committed.fetch_add(packets, std::memory_order_relaxed);
}

void succeeded() {
  if (currentThread)
    currentThread->blockedSinceNs.store(0, std::memory_order_relaxed);
}

/// Gives the core to another thread now and then: not at every failed call, since a group's
/// work-items take their turns in rounds, and a round of thousands that each gave the core away
/// could outlast the watch's timeout on a busy machine.
void offerCore() {
  thread_local uint32_t turns = 0;
  if (++turns % 64 == 0)
    std::this_thread::yield();
}

/// A call found the pipe empty or full: what the thread waits for, if it spins on it.
void failed(const PipeHeader &pipe, bool write, uint32_t site) {
  if (WatchedLaunch::Thread *thread = currentThread) {
    thread->waitsOn = &pipe;
    thread->waitsToWrite = write;
    thread->waitsAt = site;
  }
  offerCore();
}

/// An autorun kernel waiting for a millisecond or more most likely waits for a host launch: it
/// gives its core away for a while at each turn instead of spinning on it.
void napWhileWaiting(const WatchedLaunch::Thread &thread) {
  const int64_t since = thread.blockedSinceNs.load(std::memory_order_relaxed);
  if (since && nowNs() - since > 1000000)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
}

// The functions the builtin library's pipe functions call (pipes.host.ll), by these names.
extern "C" {

int32_t loomPipeRead(void *pipe, void *packet, uint32_t bytes, uint32_t site) {
  PipeHeader &header = headerOf(pipe);
  const uint64_t position = reserve(header, 1, false);
  if (position == NullReservation) {
    failed(header, false, site);
    return -1;
  }
  std::memcpy(packet, header.packet(position), std::min(bytes, header.packetBytes));
  commit(header, position, false);
  succeeded();
  return 0;
}

int32_t loomPipeWrite(void *pipe, const void *packet, uint32_t bytes, uint32_t site) {
  PipeHeader &header = headerOf(pipe);
  const uint64_t position = reserve(header, 1, true);
  if (position == NullReservation) {
    failed(header, true, site);
    return -1;
  }
  std::memcpy(header.packet(position), packet, std::min(bytes, header.packetBytes));
  commit(header, position, true);
  succeeded();
  return 0;
}

uint64_t loomPipeReserve(void *pipe, uint32_t packets, int32_t write, uint32_t site) {
  PipeHeader &header = headerOf(pipe);
  const uint64_t position = reserve(header, packets, write);
  if (position == NullReservation)
    failed(header, write, site);
  else
    succeeded();
  return position;
}

void loomPipeCommit(void *pipe, uint64_t reservation, int32_t write) {
  if (reservation != NullReservation)
    commit(headerOf(pipe), reservation, write);
}

/// read_pipe or write_pipe with a reservation: packet `index` of it.
int32_t loomPipeAccess(void *pipe, uint64_t reservation, uint32_t index, void *packet, uint32_t bytes, int32_t write) {
  PipeHeader &header = headerOf(pipe);
  if (reservation == NullReservation || index >= header.reservationSizes()[reservation % header.capacity])
    return -1;
  uint8_t *slot = header.packet(reservation + index);
  const uint32_t copied = std::min(bytes, header.packetBytes);
  if (write)
    std::memcpy(slot, packet, copied);
  else
    std::memcpy(packet, slot, copied);
  return 0;
}

/// A loop that waits on pipe calls goes round again (SpinLoopYields.h): the thread counts as
/// blocked while it keeps doing so without a success, and leaves its launch if the watch ends it.
void loomPipeSpin() {
  if (WatchedLaunch::Thread *thread = currentThread) {
    if (thread->launch->autorun()) {
      if (thread->launch->stopping())
        std::longjmp(thread->abort, 1);
      napWhileWaiting(*thread);
    }
    const int64_t now = nowNs();
    const int64_t last = thread->lastSpinNs.exchange(now, std::memory_order_relaxed);
    const int64_t since = thread->blockedSinceNs.load(std::memory_order_relaxed);
    if (!since || now - last > currentWatch->spinGapNs())
      thread->blockedSinceNs.store(now, std::memory_order_relaxed);
    else if (now - since >= currentWatch->timeoutNs() && currentWatch->deadlocked(*thread, now))
      std::longjmp(thread->abort, 1);
  }
}

uint32_t loomPipePackets(void *pipe) { return headerOf(pipe).fill(); }

uint32_t loomPipeCapacity(void *pipe) { return headerOf(pipe).capacity; }

} // extern "C"

} // namespace

llvm::orc::SymbolMap pipeOperationSymbols(llvm::orc::LLJIT &jit) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](const char *name, auto *function) {
    symbols[jit.mangleAndIntern(name)] = llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(function),
                                                     llvm::JITSymbolFlags::Exported);
  };
  add("__loom_pipe_read", &loomPipeRead);
  add("__loom_pipe_write", &loomPipeWrite);
  add("__loom_pipe_reserve", &loomPipeReserve);
  add("__loom_pipe_commit", &loomPipeCommit);
  add("__loom_pipe_access", &loomPipeAccess);
  add("__loom_pipe_packets", &loomPipePackets);
  add("__loom_pipe_capacity", &loomPipeCapacity);
  add(PipeSpinFunction, &loomPipeSpin);
  return symbols;
}

WatchedLaunch::WatchedLaunch(PipeWatch &watch, std::string kernel, std::vector<PipeArgument> pipes,
                             const std::vector<std::string> &sites, const std::atomic<bool> *stop)
    : watch(watch), kernel(std::move(kernel)), pipes(std::move(pipes)), sites(sites), stop(stop) {
  std::lock_guard<std::mutex> lock(watch.mutex);
  watch.running.push_back(this);
}

WatchedLaunch::~WatchedLaunch() {
  std::lock_guard<std::mutex> lock(watch.mutex);
  watch.running.remove(this);
}

void WatchedLaunch::join(Thread &thread) {
  thread.launch = this;
  {
    std::lock_guard<std::mutex> lock(watch.mutex);
    threads.push_back(&thread);
  }
  currentThread = &thread;
  currentWatch = &watch;
}

void WatchedLaunch::leave(Thread &thread) {
  currentThread = nullptr;
  currentWatch = nullptr;
  std::lock_guard<std::mutex> lock(watch.mutex);
  threads.erase(std::find(threads.begin(), threads.end(), &thread));
}

std::string WatchedLaunch::failure() const {
  std::lock_guard<std::mutex> lock(watch.mutex);
  return diagnosis;
}

PipeWatch::PipeWatch() {
  const char *milliseconds = std::getenv("LOOM_PIPE_DEADLOCK_MS");
  int64_t chosen = 3000;
  if (milliseconds && !llvm::StringRef(milliseconds).getAsInteger(10, chosen) && chosen > 0)
    timeout = chosen * 1000000;
  else
    timeout = 3000 * int64_t(1000000);
}

bool PipeWatch::deadlocked(WatchedLaunch::Thread &blocked, int64_t nowNs) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!blocked.launch->diagnosis.empty())
    return true;
  // Autorun kernels wait for the host's launches: a deadlock is theirs to find.
  if (blocked.launch->autorun())
    return false;
  for (const WatchedLaunch *launch : running) {
    if (launch->threads.empty())
      return false; // Starting, or finishing.
    for (const WatchedLaunch::Thread *thread : launch->threads) {
      const int64_t since = thread->blockedSinceNs.load(std::memory_order_relaxed);
      if (!since || nowNs - since < timeout ||
          nowNs - thread->lastSpinNs.load(std::memory_order_relaxed) > spinGapNs())
        return false;
    }
  }
  std::string report = llvm::formatv("deadlock: for {0} ms, every running kernel with pipe arguments has found "
                                     "the pipes it waits on empty or full, and none has moved a packet:",
                                     timeout / 1000000);
  for (const WatchedLaunch *launch : running) {
    std::vector<std::string> waits;
    for (const WatchedLaunch::Thread *thread : launch->threads) {
      auto pipe = std::find_if(launch->pipes.begin(), launch->pipes.end(),
                               [&](const WatchedLaunch::PipeArgument &argument) { return argument.storage == thread->waitsOn; });
      if (pipe == launch->pipes.end())
        continue;
      const PipeHeader &header = *static_cast<const PipeHeader *>(pipe->storage);
      const uint32_t site = thread->waitsAt;
      const std::string at = site && site <= launch->sites.size() && !launch->sites[site - 1].empty()
                                 ? "at " + launch->sites[site - 1] + " "
                                 : "";
      std::string wait = llvm::formatv("{0}to {1} pipe '{2}' ({3} of {4} packets in it)", at,
                                       thread->waitsToWrite ? "write to" : "read from", pipe->name, header.fill(),
                                       header.capacity);
      if (std::find(waits.begin(), waits.end(), wait) == waits.end())
        waits.push_back(wait);
    }
    report += " kernel '" + launch->kernel + "' waits " + llvm::join(waits, ", and ") + ";";
  }
  report.back() = '.';
  for (WatchedLaunch *launch : running)
    if (!launch->autorun())
      launch->diagnosis = report;
  return true;
}

} // namespace loom::runtime::cpu

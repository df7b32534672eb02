//===- Queue.cpp - The queue's worker thread ------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// One thread per queue executes commands in order; the API thread only appends to `pending`.
//===----------------------------------------------------------------------===//
#include "core/Queue.h"

namespace loom::runtime {

Queue::Queue(Context &context, PlatformDevice &device, uint64_t properties, bool profiling,
             int32_t dependencyFailedStatus)
    : Object(ObjectKind::Queue), context(&context), device(device), properties(properties),
      profiling(profiling), dependencyFailedStatus(dependencyFailedStatus) {
  worker = std::thread([this] { work(); });
}

Queue::~Queue() { shutdown(); }

void Queue::submit(Command command) {
  std::lock_guard<std::mutex> lock(mutex);
  last = command.event;
  pending.push_back(std::move(command));
  wake.notify_one();
}

void Queue::finish() {
  Ref<Event> waitFor;
  {
    std::lock_guard<std::mutex> lock(mutex);
    waitFor = last;
  }
  if (waitFor)
    waitFor->wait();
}

void Queue::shutdown() {
  finish();
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (stopping)
      return;
    stopping = true;
  }
  wake.notify_one();
  // A callback running on the worker may drop the last reference: the worker then exits by itself.
  if (worker.joinable()) {
    if (worker.get_id() == std::this_thread::get_id())
      worker.detach();
    else
      worker.join();
  }
  std::lock_guard<std::mutex> lock(mutex);
  last = Ref<Event>(); // The event holds the queue: break the cycle.
}

void Queue::work() {
  int32_t previousStatus = ExecStatus::Complete;
  for (;;) {
    Command command;
    {
      std::unique_lock<std::mutex> lock(mutex);
      wake.wait(lock, [&] { return stopping || !pending.empty(); });
      if (pending.empty())
        return;
      command = std::move(pending.front());
      pending.pop_front();
    }
    Event &event = *command.event;
    event.setStatus(ExecStatus::Submitted);
    bool dependencyFailed = previousStatus < 0;
    for (const Ref<Event> &dependency : command.waitList)
      if (dependency->wait() < 0)
        dependencyFailed = true;
    if (dependencyFailed) {
      event.setStatus(dependencyFailedStatus);
      previousStatus = dependencyFailedStatus;
      continue;
    }
    uint64_t start = profilingNow();
    event.setStatus(ExecStatus::Running, start);
    CommandOutcome outcome;
    if (command.run)
      outcome = command.run();
    uint64_t end = outcome.hasDeviceTime ? start + outcome.deviceNs : profilingNow();
    if (outcome.status < 0 && !outcome.diagnosis.empty())
      context->report(outcome.diagnosis);
    // Release what the command captured (kernel arguments, buffers) before signalling completion.
    command.run = nullptr;
    event.complete(outcome.status, start, end);
    previousStatus = outcome.status;
  }
}

} // namespace loom::runtime

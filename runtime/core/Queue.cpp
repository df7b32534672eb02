//===- Queue.cpp - The queue's worker thread ------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// One thread per in-order queue executes commands in order; the API thread only appends to
// `pending`. An out-of-order queue hands each command to a runner thread once its wait list has
// finished.
//===----------------------------------------------------------------------===//
#include "core/Queue.h"

#include "llvm/ADT/STLExtras.h"

#include <atomic>
#include <memory>
#include <system_error>

namespace loom::runtime {

Queue::Queue(Context &context, PlatformDevice &device, uint64_t properties, bool profiling, bool outOfOrder,
             int32_t dependencyFailedStatus)
    : Object(ObjectKind::Queue), context(&context), device(device), properties(properties),
      profiling(profiling), outOfOrder(outOfOrder), dependencyFailedStatus(dependencyFailedStatus) {
  if (!outOfOrder)
    worker = std::thread([this] { work(); });
}

Queue::~Queue() { shutdown(); }

void Queue::submit(Command command) {
  std::unique_lock<std::mutex> lock(mutex);
  last = command.event;
  if (outOfOrder) {
    orderUnordered(command);
    lock.unlock();
    return startWhenReady(std::move(command));
  }
  pending.push_back(std::move(command));
  wake.notify_one();
}

void Queue::orderUnordered(Command &command) {
  auto finished = [](const Ref<Event> &event) { return event->status() <= ExecStatus::Complete; };
  llvm::erase_if(outstanding, finished);
  if (barrier && finished(barrier))
    barrier = Ref<Event>();
  if (command.sync != Command::Sync::None && command.waitList.empty())
    command.waitList = outstanding;
  if (barrier)
    command.waitList.push_back(barrier);
  if (command.sync == Command::Sync::Barrier)
    barrier = command.event;
  outstanding.push_back(command.event);
}

void Queue::startWhenReady(Command command) {
  // The last of the wait list to finish (or this call, if that was before) makes it ready.
  struct Waiting {
    Command command;
    std::atomic<size_t> remaining;
  };
  auto waiting = std::make_shared<Waiting>();
  waiting->remaining = command.waitList.size() + 1;
  const std::vector<Ref<Event>> dependencies = command.waitList;
  waiting->command = std::move(command);
  // The callback keeps the queue: its last reference may go before the wait list finishes.
  auto arrive = [keep = Ref<Queue>(this), waiting](int32_t) {
    if (--waiting->remaining == 0)
      keep->dispatch(std::move(waiting->command));
  };
  for (const Ref<Event> &dependency : dependencies)
    dependency->addCallback(ExecStatus::Complete, arrive);
  arrive(ExecStatus::Complete);
}

void Queue::dispatch(Command command) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    ready.push_back(std::move(command));
    if (runners >= MaxRunners)
      return; // A runner takes it when its command is done.
    ++runners;
  }
  try {
    // The thread keeps the queue: its last reference may go while the command runs.
    std::thread([keep = Ref<Queue>(this)] { keep->runReady(); }).detach();
  } catch (const std::system_error &) {
    runReady(); // No thread to be had: this one runs what is ready.
  }
}

void Queue::runReady() {
  for (;;) {
    Command command;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (ready.empty()) {
        --runners;
        return;
      }
      command = std::move(ready.front());
      ready.pop_front();
    }
    run(std::move(command), false);
  }
}

std::vector<Ref<Event>> Queue::unfinished() {
  std::lock_guard<std::mutex> lock(mutex);
  if (outOfOrder)
    return outstanding;
  return last ? std::vector<Ref<Event>>{last} : std::vector<Ref<Event>>{};
}

void Queue::help(const Event *until) {
  for (;;) {
    Command command;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (executing || pending.empty() ||
          (until && llvm::none_of(pending, [&](const Command &c) { return c.event.get() == until; })))
        return;
      command = std::move(pending.front());
      pending.pop_front();
      executing = true;
    }
    const bool reached = command.event.get() == until;
    execute(std::move(command));
    if (reached)
      return;
  }
}

void Queue::finish() {
  Ref<Queue> keep(this); // A callback the commands run may release the application's reference.
  help(nullptr);
  for (const Ref<Event> &event : unfinished())
    event->wait();
}

int32_t Queue::wait(Event &event) {
  Ref<Queue> keep(this);
  help(&event);
  return event.wait();
}

void Queue::shutdown() {
  // The last reference may go inside a command's callback: only wait here, run nothing.
  for (const Ref<Event> &event : unfinished())
    event->wait();
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
  last = barrier = Ref<Event>(); // The events hold the queue: break the cycle.
  outstanding.clear();
}

void Queue::work() {
  for (;;) {
    Command command;
    {
      std::unique_lock<std::mutex> lock(mutex);
      // Stopping comes after the last command (shutdown() waits for it), perhaps while a waiting
      // thread still finishes that command's callbacks.
      wake.wait(lock, [&] { return (stopping && pending.empty()) || (!pending.empty() && !executing); });
      if (pending.empty())
        return;
      command = std::move(pending.front());
      pending.pop_front();
      executing = true;
    }
    execute(std::move(command));
  }
}

void Queue::execute(Command command) {
  previousStatus = run(std::move(command), previousStatus < 0);
  {
    std::lock_guard<std::mutex> lock(mutex);
    executing = false;
  }
  wake.notify_one(); // The worker may be waiting for this thread to finish.
}

int32_t Queue::run(Command command, bool previousFailed) {
  Event &event = *command.event;
  event.setStatus(ExecStatus::Submitted);
  bool dependencyFailed = previousFailed;
  for (const Ref<Event> &dependency : command.waitList)
    if (dependency->wait() < 0)
      dependencyFailed = true;
  CommandOutcome outcome;
  uint64_t start = 0, end = 0;
  if (dependencyFailed) {
    outcome.status = dependencyFailedStatus;
  } else {
    start = profilingNow();
    event.setStatus(ExecStatus::Running, start);
    if (command.run)
      outcome = command.run();
    end = outcome.hasDeviceTime ? start + outcome.deviceNs : profilingNow();
    if (outcome.status < 0 && !outcome.diagnosis.empty())
      context->report(outcome.diagnosis);
  }
  // Release what the command captured (kernel arguments, buffers) before signalling completion.
  command.run = nullptr;
  if (dependencyFailed) {
    event.setStatus(dependencyFailedStatus);
    return dependencyFailedStatus;
  }
  event.complete(outcome.status, start, end);
  return outcome.status;
}

} // namespace loom::runtime

//===- Event.cpp - Event state transitions, waiting and callbacks ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Status only moves forward; callbacks run outside the lock so they may call back into the API.
//===----------------------------------------------------------------------===//
#include "core/Event.h"
#include "core/Queue.h"

namespace loom::runtime {

uint64_t profilingNow() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Event::Event(Context &context, Queue *queue, uint32_t commandType, bool profiling)
    : Object(ObjectKind::Event), context(&context), commandType(commandType), profiling(profiling),
      owningQueue(queue) {
  if (!queue)
    current = ExecStatus::Submitted; // A user event starts as CL_SUBMITTED.
  stamps.queued = profilingNow();
}

int32_t Event::status() const {
  std::lock_guard<std::mutex> lock(mutex);
  return current;
}

void Event::setStatus(int32_t status, uint64_t timestamp) {
  std::unique_lock<std::mutex> lock(mutex);
  if (current <= 0 || (status >= 0 && status >= current))
    return;
  current = status;
  switch (status) {
  case ExecStatus::Submitted:
    stamps.submitted = timestamp;
    break;
  case ExecStatus::Running:
    stamps.start = timestamp;
    break;
  default: // Complete or failed.
    if (!stamps.start)
      stamps.start = timestamp;
    if (!stamps.submitted)
      stamps.submitted = stamps.start;
    stamps.end = timestamp;
    break;
  }
  runCallbacks(lock);
}

void Event::complete(int32_t status, uint64_t start, uint64_t end) {
  std::unique_lock<std::mutex> lock(mutex);
  if (current <= 0)
    return;
  current = status > 0 ? ExecStatus::Complete : status;
  stamps.start = start;
  if (!stamps.submitted)
    stamps.submitted = start;
  stamps.end = end;
  runCallbacks(lock);
}

void Event::runCallbacks(std::unique_lock<std::mutex> &lock) {
  std::vector<Callback> due;
  for (auto it = callbacks.begin(); it != callbacks.end();) {
    if (current < 0 || current <= it->trigger) {
      due.push_back(std::move(*it));
      it = callbacks.erase(it);
    } else {
      ++it;
    }
  }
  int32_t status = current;
  lock.unlock();
  changed.notify_all();
  for (Callback &callback : due)
    callback.function(status < 0 ? status : callback.trigger);
}

int32_t Event::wait() const {
  std::unique_lock<std::mutex> lock(mutex);
  changed.wait(lock, [&] { return current <= 0; });
  return current;
}

void Event::addCallback(int32_t trigger, std::function<void(int32_t)> callback) {
  std::unique_lock<std::mutex> lock(mutex);
  callbacks.push_back({trigger, std::move(callback)});
  runCallbacks(lock);
}

Event::Times Event::times() const {
  std::lock_guard<std::mutex> lock(mutex);
  return stamps;
}

} // namespace loom::runtime

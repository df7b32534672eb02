//===- Event.h - Command status, profiling timestamps and callbacks -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// An event follows one command (or is a user event) through the spec's execution states:
// Queued (3) -> Submitted (2) -> Running (1) -> Complete (0), or a negative error code chosen by the
// API layer, which ends it as well. Callbacks run once the status reaches or passes the state they
// were registered for; a failed event runs every pending callback with its error code.
//===----------------------------------------------------------------------===//
#pragma once

#include "core/Context.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace loom::runtime {

class Queue;

/// The spec's execution states; negative values are errors.
namespace ExecStatus {
constexpr int32_t Complete = 0;
constexpr int32_t Running = 1;
constexpr int32_t Submitted = 2;
constexpr int32_t Queued = 3;
} // namespace ExecStatus

/// Nanoseconds of the profiling clock (steady, shared by host and devices).
uint64_t profilingNow();

class Event : public Object {
public:
  /// An event of a command in `queue`; `commandType` is opaque to the core (a CL_COMMAND_* value).
  Event(Context &context, Queue *queue, uint32_t commandType, bool profiling);

  const Ref<Context> context;
  Queue *queue() const { return owningQueue.get(); }
  const uint32_t commandType;
  const bool profiling;

  int32_t status() const;
  /// Moves to a later state (ignored if the event is already there or beyond). `timestamp` is the
  /// profiling time of the transition.
  void setStatus(int32_t status, uint64_t timestamp = profilingNow());
  /// Completes with the given start and end times (kernels report device time).
  void complete(int32_t status, uint64_t start, uint64_t end);
  /// Blocks until the event is complete or failed; returns the final status.
  int32_t wait() const;

  /// Registers `callback` for `trigger` (Complete, Running or Submitted); runs it at once, in this
  /// thread, if the status is already there.
  void addCallback(int32_t trigger, std::function<void(int32_t status)> callback);

  struct Times {
    uint64_t queued = 0, submitted = 0, start = 0, end = 0;
  };
  Times times() const;

private:
  Ref<Queue> owningQueue;
  mutable std::mutex mutex;
  mutable std::condition_variable changed;
  int32_t current = ExecStatus::Queued;
  Times stamps;
  struct Callback {
    int32_t trigger;
    std::function<void(int32_t)> function;
  };
  std::vector<Callback> callbacks;
  void runCallbacks(std::unique_lock<std::mutex> &lock);
};

} // namespace loom::runtime

//===- Queue.h - A command queue: in order with one worker, or out of order -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Commands are closures the API layer builds. In an in-order queue they run one at a time in
// submission order, on the queue's worker thread or on an application thread that waits for them
// (help()): clFinish and a blocking command run what the worker has not started yet themselves,
// which saves the two thread hand-offs that otherwise dominate a short command (PoCL's pthread
// device has the caller join in the same way).
// Before a command runs, the worker waits for its wait list and for the previous command. If one of
// those failed, the command is not run and fails with the queue's dependency-failure code (the API
// passes CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST), as in PoCL, so a failed launch poisons what
// was queued after it.
// In an out-of-order queue a command is ready once its wait list has finished (a callback of each
// event in it, so a command waiting holds no thread) and then runs on a runner thread: a new one
// for each ready command up to MaxRunners at once, so kernels that talk through pipes run at the same
// time, while a program that queues thousands of commands gets no more threads than that. A marker
// or barrier without a wait list waits for every command before it, and a barrier holds back every
// command after it. A command there fails for its own wait list only.
//===----------------------------------------------------------------------===//
#pragma once

#include "core/Event.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace loom::runtime {

/// What running a command produced.
struct CommandOutcome {
  int32_t status = ExecStatus::Complete; ///< Negative: failed with this code.
  uint64_t deviceNs = 0;                 ///< Device time when the device reports it (kernels).
  bool hasDeviceTime = false;
  std::string diagnosis;                 ///< Why it failed, for LOOM_DEBUG and the context callback.
};

struct Command {
  /// What orders a command in an out-of-order queue beside its wait list.
  enum class Sync { None, Marker, Barrier };
  Ref<Event> event;
  std::vector<Ref<Event>> waitList;
  std::function<CommandOutcome()> run; ///< Empty for markers and barriers.
  Sync sync = Sync::None;
};

class Queue : public Object {
public:
  Queue(Context &context, PlatformDevice &device, uint64_t properties, bool profiling, bool outOfOrder,
        int32_t dependencyFailedStatus);
  ~Queue();

  const Ref<Context> context;
  PlatformDevice &device;
  const uint64_t properties; ///< The cl_command_queue_properties bits, as given.
  const bool profiling;
  const bool outOfOrder;
  std::vector<intptr_t> rawProperties; ///< clCreateCommandQueueWithProperties' list, for queries.

  /// Hands a command to the worker. The command's event moves to Queued now.
  void submit(Command command);
  /// Blocks until every command submitted so far has finished, running what no thread has started.
  void finish();
  /// Blocks until `event`'s command has finished, running it and the commands before it if no
  /// thread has started them.
  int32_t wait(Event &event);
  /// Finishes, then stops the worker; called when the last user reference goes.
  void shutdown();

private:
  void work();
  /// Runs pending commands on the calling thread, in order, until `until`'s has run (null: all), as
  /// long as no other thread is running one.
  void help(const Event *until);
  /// Runs one command taken from `pending` (the caller set `executing`), then clears `executing`.
  void execute(Command command);
  /// Out of order: adds the markers' and barriers' ordering to the command's wait list and counts
  /// it outstanding (the caller holds `mutex`).
  void orderUnordered(Command &command);
  /// Out of order: dispatches the command once its wait list has finished.
  void startWhenReady(Command command);
  /// Out of order: queues a ready command for a runner, starting one if fewer than MaxRunners run.
  void dispatch(Command command);
  /// A runner's loop: runs ready commands until none is left.
  void runReady();
  /// Waits for the command's wait list, runs it unless a dependency (or `previousFailed`) failed,
  /// and completes its event; returns its status.
  int32_t run(Command command, bool previousFailed);
  /// The events finish() and shutdown() wait for.
  std::vector<Ref<Event>> unfinished();
  const int32_t dependencyFailedStatus;
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Command> pending;
  Ref<Event> last; ///< The most recently submitted command's event (what finish() waits for).
  bool stopping = false;
  bool executing = false;            ///< A thread is running a command taken from `pending`.
  int32_t previousStatus = ExecStatus::Complete; ///< The last command's; only the executor uses it.
  std::thread worker; ///< In order only.
  /// Out of order: the commands submitted and not finished, and the latest barrier.
  std::vector<Ref<Event>> outstanding;
  Ref<Event> barrier;
  /// Out of order: commands whose wait list has finished, waiting for a runner; the runners.
  std::deque<Command> ready;
  unsigned runners = 0;
  static constexpr unsigned MaxRunners = 256;
};

} // namespace loom::runtime

//===- AutorunKernels.h - A program's autorun kernels, each on a thread of its own -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Intel's autorun kernels (frontend KernelInfo::autorun) run for as long as their program lives.
// A device program keeps one AutorunKernels: each kernel runs on a thread of its own that calls the
// device's `run` again each time it returns, until the program stops them (stop(), with what makes
// a waiting run return: the CPU device's runs watch `stopping()`, the board's end with its
// process) or a run fails, which the program's context hears about.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace loom::runtime {

class AutorunKernels {
public:
  AutorunKernels() = default;
  AutorunKernels(const AutorunKernels &) = delete;
  AutorunKernels &operator=(const AutorunKernels &) = delete;
  ~AutorunKernels() { stop([] {}); }

  /// Calls `run` on a new thread, again each time it succeeds, until stop(); the first error is
  /// passed to `failed` (unless it came from stopping).
  void start(std::function<llvm::Error()> run, std::function<void(const std::string &)> failed) {
    std::lock_guard<std::mutex> lock(mutex_);
    threads_.emplace_back([this, run = std::move(run), failed = std::move(failed)] {
      while (!stopping_.load(std::memory_order_acquire)) {
        llvm::Error error = run();
        if (!error)
          continue;
        const std::string message = llvm::toString(std::move(error));
        if (!stopping_.load(std::memory_order_acquire))
          failed(message);
        return;
      }
    });
  }

  /// Asks every run to stop, calls `interrupt` (what makes a run that waits return), and waits for
  /// the threads. Idempotent.
  void stop(const std::function<void()> &interrupt) {
    stopping_.store(true, std::memory_order_release);
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      threads.swap(threads_);
    }
    if (threads.empty())
      return;
    interrupt();
    for (std::thread &thread : threads)
      thread.join();
  }

  /// True once stop() was called: a run watching it returns soon after.
  const std::atomic<bool> &stopping() const { return stopping_; }

private:
  std::mutex mutex_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stopping_{false};
};

} // namespace loom::runtime

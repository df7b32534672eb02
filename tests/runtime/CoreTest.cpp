// SPDX-License-Identifier: Apache-2.0
// Unit tests of runtime/core: the handle layout the ICD loader relies on, handle validation (NULL,
// zeroed, wrong family, released), reference counts, events and the in-order queue.
#include "api/Support.h"
#include "core/Platform.h"
#include "core/Queue.h"

#include "../TestSupport.h"

#include <CL/cl_icd.h>

#include <atomic>
#include <cstring>

using namespace loom::runtime;

namespace {
Context *cpuContext() {
  std::vector<PlatformDevice *> devices;
  for (PlatformDevice *device : Platform::get().devices())
    if (device->info().kind == DeviceKind::Cpu)
      devices.push_back(device);
  REQUIRE(devices.size() == 1);
  return Object::create<Context>(devices, std::vector<intptr_t>{}, nullptr);
}
} // namespace

TEST_CASE("handles start with the dispatch table, then the magic number", "[unit][runtime]") {
  Context *context = cpuContext();
  const void *first = *reinterpret_cast<const void *const *>(context);
  CHECK(first == icdDispatchTable());
  const auto *table = static_cast<const cl_icd_dispatch *>(first);
  CHECK(table->clGetDeviceInfo == &clGetDeviceInfo);
  CHECK(table->clCreateImage != nullptr); // Unimplemented slots still hold a function.
  cl_int err = CL_SUCCESS;
  CHECK(table->clCreateImage(api::handleOf(context), 0, nullptr, nullptr, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_OPERATION);
  CHECK(*reinterpret_cast<const ObjectKind *>(reinterpret_cast<const char *>(context) + sizeof(void *)) ==
        ObjectKind::Context);
  if (context->releaseUser())
    context->retire();
}

TEST_CASE("handle validation rejects NULL, zeroed, foreign and released handles", "[unit][runtime]") {
  using api::lookup;
  Context *context = cpuContext();
  cl_context handle = api::handleOf(context);
  CHECK(lookup<Context>(handle) == context);
  CHECK(lookup<Context>(nullptr) == nullptr);
  alignas(16) static unsigned char zeroed[256] = {};
  CHECK(lookup<Context>(reinterpret_cast<cl_context>(zeroed)) == nullptr);
  CHECK(clRetainContext(reinterpret_cast<cl_context>(zeroed)) == CL_INVALID_CONTEXT);
  CHECK(lookup<Queue>(reinterpret_cast<cl_command_queue>(context)) == nullptr);
  CHECK(clReleaseCommandQueue(reinterpret_cast<cl_command_queue>(context)) == CL_INVALID_COMMAND_QUEUE);

  CHECK(clRetainContext(handle) == CL_SUCCESS);
  cl_uint count = 0;
  REQUIRE(clGetContextInfo(handle, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, nullptr) == CL_SUCCESS);
  CHECK(count == 2);
  CHECK(clReleaseContext(handle) == CL_SUCCESS);
  CHECK(clReleaseContext(handle) == CL_SUCCESS);
  CHECK(lookup<Context>(handle) == nullptr);
  CHECK(clReleaseContext(handle) == CL_INVALID_CONTEXT);
  // The memory is a tombstone: the dispatch pointer stays for the loader.
  CHECK(*reinterpret_cast<const void *const *>(handle) == icdDispatchTable());
}

TEST_CASE("a released context lives on while a buffer uses it", "[unit][runtime]") {
  Context *context = cpuContext();
  auto buffer = Buffer::create(*context, MemFlag::CopyHostPtr, 8, const_cast<char *>("abcdefg"));
  REQUIRE_OK(buffer);
  if (context->releaseUser())
    context->retire();
  CHECK(api::lookup<Context>(api::handleOf(context)) == nullptr);
  CHECK(std::memcmp((*buffer)->data(), "abcdefg", 8) == 0);
  CHECK((*buffer)->context->devices.size() == 1);
  if ((*buffer)->releaseUser())
    (*buffer)->retire();
}

TEST_CASE("events move forward only and run callbacks once", "[unit][runtime]") {
  Context *context = cpuContext();
  Event *event = Object::create<Event>(*context, nullptr, 0, false);
  std::vector<int32_t> seen;
  event->addCallback(ExecStatus::Complete, [&](int32_t status) { seen.push_back(status); });
  event->setStatus(ExecStatus::Running);
  CHECK(seen.empty());
  event->setStatus(ExecStatus::Complete);
  event->setStatus(ExecStatus::Submitted); // Ignored: already complete.
  CHECK(event->status() == ExecStatus::Complete);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0] == ExecStatus::Complete);
  event->addCallback(ExecStatus::Submitted, [&](int32_t status) { seen.push_back(status); });
  CHECK(seen.size() == 2); // Already past: runs at once.
  if (event->releaseUser())
    event->retire();
  if (context->releaseUser())
    context->retire();
}

TEST_CASE("the queue runs commands in order and propagates failures", "[unit][runtime]") {
  Context *context = cpuContext();
  Queue *queue = Object::create<Queue>(*context, *context->devices[0], 0, true, false, -14);
  std::vector<int> order;
  std::mutex mutex;
  auto command = [&](int id, int32_t status) {
    Command c;
    c.event = Ref<Event>(Object::create<Event>(*context, queue, 0, true));
    c.run = [&, id, status] {
      std::lock_guard<std::mutex> lock(mutex);
      order.push_back(id);
      CommandOutcome outcome;
      outcome.status = status;
      return outcome;
    };
    return c;
  };
  Command a = command(1, 0), b = command(2, -5), c = command(3, 0);
  Ref<Event> first = a.event, second = b.event, third = c.event;
  queue->submit(std::move(a));
  queue->submit(std::move(b));
  queue->submit(std::move(c));
  queue->finish();
  CHECK(order == std::vector<int>{1, 2});
  CHECK(first->status() == ExecStatus::Complete);
  CHECK(second->status() == -5);
  CHECK(third->status() == -14); // Not run: the command before it failed.
  auto times = first->times();
  CHECK(times.queued <= times.start);
  CHECK(times.start <= times.end);
  for (Event *event : {first.get(), second.get(), third.get()})
    if (event->releaseUser())
      event->retire();
  first = second = third = Ref<Event>();
  if (queue->releaseUser()) {
    queue->shutdown();
    queue->retire();
  }
  if (context->releaseUser())
    context->retire();
}

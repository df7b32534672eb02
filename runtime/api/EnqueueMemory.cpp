//===- EnqueueMemory.cpp - Buffer reads, writes, copies, fills, maps -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Device memory is host-visible on both devices, so every transfer is a memcpy run by the queue's
// worker in order. A map returns a pointer into that memory at once (the application may only touch
// it after the map's event completes); a USE_HOST_PTR buffer mirrored in device memory maps to the
// application's own pointer and is synchronised by the map and unmap commands.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

using namespace loom::runtime;
using namespace loom::runtime::api;

namespace {

/// The checks shared by every buffer command: queue, buffer, same context, wait list.
struct Prologue {
  Queue *queue = nullptr;
  std::vector<Ref<Event>> waitList;
};

cl_int begin(const char *entryPoint, cl_command_queue command_queue,
             std::initializer_list<std::pair<cl_mem, Buffer **>> buffers, cl_uint numEvents,
             const cl_event *events, Prologue &prologue) {
  prologue.queue = lookup<Queue>(command_queue);
  LOOM_CHECK(prologue.queue, CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  for (auto &[handle, out] : buffers) {
    *out = lookup<Buffer>(handle);
    LOOM_CHECK(*out, CL_INVALID_MEM_OBJECT, "buffer is not a valid buffer object");
    LOOM_CHECK((*out)->context.get() == prologue.queue->context.get(), CL_INVALID_CONTEXT,
               "the buffer and the command queue belong to different contexts");
  }
  return collectWaitList(entryPoint, prologue.queue->context.get(), numEvents, events, prologue.waitList);
}

bool inBounds(const Buffer &buffer, size_t offset, size_t size) {
  return offset <= buffer.size && size <= buffer.size - offset;
}

} // namespace

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       cl_bool blocking_read, size_t offset, size_t size, void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  Prologue p;
  Buffer *source = nullptr;
  if (cl_int error = begin(entryPoint, command_queue, {{buffer, &source}}, num_events_in_wait_list,
                           event_wait_list, p))
    return error;
  LOOM_CHECK(ptr && size && inBounds(*source, offset, size), CL_INVALID_VALUE,
             "ptr is NULL, size is 0 or offset+size is beyond the buffer");
  LOOM_CHECK(!(source->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION,
             "the buffer was created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS");
  Ref<Buffer> keep(source);
  return submit(entryPoint, *p.queue, CL_COMMAND_READ_BUFFER, std::move(p.waitList),
                [keep, offset, size, ptr] {
                  std::memcpy(ptr, keep->data() + offset, size);
                  return CommandOutcome{};
                },
                event, blocking_read);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                        cl_bool blocking_write, size_t offset, size_t size,
                                        const void *ptr, cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  Prologue p;
  Buffer *target = nullptr;
  if (cl_int error = begin(entryPoint, command_queue, {{buffer, &target}}, num_events_in_wait_list,
                           event_wait_list, p))
    return error;
  LOOM_CHECK(ptr && size && inBounds(*target, offset, size), CL_INVALID_VALUE,
             "ptr is NULL, size is 0 or offset+size is beyond the buffer");
  LOOM_CHECK(!(target->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION,
             "the buffer was created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS");
  Ref<Buffer> keep(target);
  // A non-blocking write may read `ptr` until its event completes, as the spec allows.
  return submit(entryPoint, *p.queue, CL_COMMAND_WRITE_BUFFER, std::move(p.waitList),
                [keep, offset, size, ptr] {
                  std::memcpy(keep->data() + offset, ptr, size);
                  return CommandOutcome{};
                },
                event, blocking_write);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                       cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  Prologue p;
  Buffer *source = nullptr, *target = nullptr;
  if (cl_int error = begin(entryPoint, command_queue, {{src_buffer, &source}, {dst_buffer, &target}},
                           num_events_in_wait_list, event_wait_list, p))
    return error;
  LOOM_CHECK(size && inBounds(*source, src_offset, size) && inBounds(*target, dst_offset, size),
             CL_INVALID_VALUE, "size is 0 or a region is beyond its buffer");
  LOOM_CHECK(!(source == target && src_offset < dst_offset + size && dst_offset < src_offset + size),
             CL_MEM_COPY_OVERLAP, "source and destination regions overlap");
  Ref<Buffer> from(source), to(target);
  return submit(entryPoint, *p.queue, CL_COMMAND_COPY_BUFFER, std::move(p.waitList),
                [from, to, src_offset, dst_offset, size] {
                  std::memcpy(to->data() + dst_offset, from->data() + src_offset, size);
                  return CommandOutcome{};
                },
                event, false);
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       const void *pattern, size_t pattern_size, size_t offset,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  Prologue p;
  Buffer *target = nullptr;
  if (cl_int error = begin(entryPoint, command_queue, {{buffer, &target}}, num_events_in_wait_list,
                           event_wait_list, p))
    return error;
  LOOM_CHECK(pattern && pattern_size && pattern_size <= 128 && !(pattern_size & (pattern_size - 1)),
             CL_INVALID_VALUE, "pattern is NULL or pattern_size is not 1, 2, 4, ..., 128");
  LOOM_CHECK(offset % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE,
             "offset and size must be multiples of pattern_size");
  LOOM_CHECK(inBounds(*target, offset, size), CL_INVALID_VALUE, "offset+size is beyond the buffer");
  Ref<Buffer> keep(target);
  std::vector<uint8_t> bytes(static_cast<const uint8_t *>(pattern),
                             static_cast<const uint8_t *>(pattern) + pattern_size);
  return submit(entryPoint, *p.queue, CL_COMMAND_FILL_BUFFER, std::move(p.waitList),
                [keep, bytes = std::move(bytes), offset, size] {
                  uint8_t *out = keep->data() + offset;
                  for (size_t done = 0; done < size; done += bytes.size())
                    std::memcpy(out + done, bytes.data(), bytes.size());
                  return CommandOutcome{};
                },
                event, false);
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                                     cl_bool blocking_map, cl_map_flags map_flags, size_t offset,
                                     size_t size, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event,
                                     cl_int *errcode_ret) {
  LOOM_ENTRY();
  void *result = nullptr;
  cl_int status = [&]() -> cl_int {
    Prologue p;
    Buffer *target = nullptr;
    if (cl_int error = begin(entryPoint, command_queue, {{buffer, &target}}, num_events_in_wait_list,
                             event_wait_list, p))
      return error;
    LOOM_CHECK(size && inBounds(*target, offset, size), CL_INVALID_VALUE,
               "size is 0 or offset+size is beyond the buffer");
    constexpr cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    LOOM_CHECK(!(map_flags & ~known), CL_INVALID_VALUE, "unknown cl_map_flags bits");
    LOOM_CHECK(!((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))),
               CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE");
    LOOM_CHECK(!((map_flags & CL_MAP_READ) && (target->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))),
               CL_INVALID_OPERATION, "mapping for reading a HOST_WRITE_ONLY or HOST_NO_ACCESS buffer");
    LOOM_CHECK(!((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
                 (target->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))),
               CL_INVALID_OPERATION, "mapping for writing a HOST_READ_ONLY or HOST_NO_ACCESS buffer");
    bool mirrored = target->mirrorsHostPtr();
    uint8_t *pointer = mirrored ? static_cast<uint8_t *>(target->hostPtr) + offset : target->data() + offset;
    bool writes = map_flags != CL_MAP_READ;
    target->addMapping({pointer, offset, size, writes});
    Ref<Buffer> keep(target);
    bool copyIn = mirrored && !(map_flags & CL_MAP_WRITE_INVALIDATE_REGION);
    if (cl_int error = submit(entryPoint, *p.queue, CL_COMMAND_MAP_BUFFER, std::move(p.waitList),
                              [keep, pointer, offset, size, copyIn] {
                                if (copyIn)
                                  std::memcpy(pointer, keep->data() + offset, size);
                                return CommandOutcome{};
                              },
                              event, blocking_map)) {
      return error;
    }
    result = pointer;
    return CL_SUCCESS;
  }();
  setError(errcode_ret, status);
  return result;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                                           void *mapped_ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  Prologue p;
  Buffer *target = nullptr;
  if (cl_int error = begin(entryPoint, command_queue, {{memobj, &target}}, num_events_in_wait_list,
                           event_wait_list, p))
    return error;
  Buffer::Mapping mapping;
  LOOM_CHECK(target->takeMapping(mapped_ptr, mapping), CL_INVALID_VALUE,
             "mapped_ptr was not returned by clEnqueueMapBuffer for this buffer, or is unmapped");
  Ref<Buffer> keep(target);
  bool copyOut = target->mirrorsHostPtr() && mapping.writes;
  return submit(entryPoint, *p.queue, CL_COMMAND_UNMAP_MEM_OBJECT, std::move(p.waitList),
                [keep, mapping, copyOut] {
                  if (copyOut)
                    std::memcpy(keep->data() + mapping.offset, mapping.pointer, mapping.size);
                  return CommandOutcome{};
                },
                event, false);
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                              const cl_mem *mem_objects, cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  Queue *queue = lookup<Queue>(command_queue);
  LOOM_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  LOOM_CHECK(num_mem_objects && mem_objects, CL_INVALID_VALUE, "no memory objects given");
  LOOM_CHECK(!(flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                                CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)),
             CL_INVALID_VALUE, "unknown cl_mem_migration_flags bits");
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    Buffer *buffer = lookup<Buffer>(mem_objects[i]);
    LOOM_CHECK(buffer, CL_INVALID_MEM_OBJECT, "mem_objects[" + std::to_string(i) + "] is not valid");
    LOOM_CHECK(buffer->context.get() == queue->context.get(), CL_INVALID_CONTEXT,
               "mem_objects[" + std::to_string(i) + "] belongs to another context");
  }
  std::vector<Ref<Event>> waitList;
  if (cl_int error = collectWaitList(entryPoint, queue->context.get(), num_events_in_wait_list,
                                     event_wait_list, waitList))
    return error;
  // One copy of each buffer, visible to every device: there is nothing to move.
  return submit(entryPoint, *queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, std::move(waitList), nullptr, event, false);
}

//===- EnqueueMemory.cpp - Buffer reads, writes, copies, fills, maps, rectangles ===//
// SPDX-License-Identifier: Apache-2.0
//
// Device memory is host-visible on both devices, so every transfer is a memcpy run by the queue's
// worker in order. A map returns a pointer into that memory at once (the application may only touch
// it after the map's event completes); a USE_HOST_PTR buffer mirrored in device memory maps to the
// application's own pointer and is synchronised by the map and unmap commands. The *Rect commands
// copy a 2D or 3D region a row at a time between two pitched layouts.
//===----------------------------------------------------------------------===//
#include "api/Support.h"

#include <array>

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
    LOOM_CHECK(*out && !(*out)->isPipe(), CL_INVALID_MEM_OBJECT, "buffer is not a valid buffer object");
    LOOM_CHECK((*out)->context.get() == prologue.queue->context.get(), CL_INVALID_CONTEXT,
               "the buffer and the command queue belong to different contexts");
  }
  return collectWaitList(entryPoint, prologue.queue->context.get(), numEvents, events, prologue.waitList);
}

cl_int checkHostMayRead(const char *entryPoint, const Buffer &buffer) {
  LOOM_CHECK(!(buffer.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION,
             "the host reads a buffer created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS");
  return CL_SUCCESS;
}

cl_int checkHostMayWrite(const char *entryPoint, const Buffer &buffer) {
  LOOM_CHECK(!(buffer.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION,
             "the host writes a buffer created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS");
  return CL_SUCCESS;
}

/// A rect command's region: width in bytes, height in rows, depth in slices.
using Region = std::array<size_t, 3>;

/// One side of a rect command in linear memory: where its origin lies and its pitches, with the
/// spec's defaults for pitches given as 0.
struct Rect {
  size_t start = 0, rowPitch = 0, slicePitch = 0;
  size_t rowAt(size_t y, size_t z) const { return start + z * slicePitch + y * rowPitch; }
};

/// `a * b + c`, false when it does not fit a size_t: a wrapped offset would pass the bounds checks.
bool mulAdd(size_t a, size_t b, size_t c, size_t &out) {
  return !__builtin_mul_overflow(a, b, &out) && !__builtin_add_overflow(out, c, &out);
}

cl_int checkRegion(const char *entryPoint, const size_t *region, Region &out) {
  LOOM_CHECK(region && region[0] && region[1] && region[2], CL_INVALID_VALUE, "region is NULL or has a 0");
  out = {region[0], region[1], region[2]};
  return CL_SUCCESS;
}

/// Checks one side of a rect command (`side` names it for the log) and applies the pitch defaults.
/// Its bytes must lie below `limit`: the buffer's size, or the address space for the host's side.
cl_int makeRect(const char *entryPoint, const std::string &side, const size_t *origin,
                const Region &region, size_t rowPitch, size_t slicePitch, size_t limit, Rect &rect) {
  LOOM_CHECK(origin, CL_INVALID_VALUE, side + "_origin is NULL");
  rect.rowPitch = rowPitch ? rowPitch : region[0];
  LOOM_CHECK(rect.rowPitch >= region[0], CL_INVALID_VALUE, side + "_row_pitch is less than region[0]");
  rect.slicePitch = slicePitch;
  // The default slice pitch is region[1] rows; one that does not fit a size_t is out of bounds.
  bool fits = slicePitch || mulAdd(region[1], rect.rowPitch, 0, rect.slicePitch);
  LOOM_CHECK(!fits || (rect.slicePitch / region[1] >= rect.rowPitch && rect.slicePitch % rect.rowPitch == 0),
             CL_INVALID_VALUE,
             side + "_slice_pitch is less than region[1] rows or not a multiple of the row pitch");
  size_t extent = 0, end = 0;
  fits = fits && mulAdd(origin[1], rect.rowPitch, origin[0], rect.start) &&
         mulAdd(origin[2], rect.slicePitch, rect.start, rect.start) &&
         mulAdd(region[1] - 1, rect.rowPitch, region[0], extent) &&
         mulAdd(region[2] - 1, rect.slicePitch, extent, extent) &&
         !__builtin_add_overflow(rect.start, extent, &end);
  LOOM_CHECK(fits && end <= limit, CL_INVALID_VALUE, side + " region is out of bounds");
  return CL_SUCCESS;
}

/// Copies `region` from one rect to another, a row at a time.
void copyRect(uint8_t *to, const Rect &target, const uint8_t *from, const Rect &source,
              const Region &region) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      std::memcpy(to + target.rowAt(y, z), from + source.rowAt(y, z), region[0]);
}

/// CL_MEM_COPY_OVERLAP's rule: the two rects lie in the same storage (one buffer, or sub-buffers and
/// their parent) and share a byte. Each rect's rows are disjoint and ascending (the pitch checks see
/// to it), so one merge of the two row lists decides exactly.
bool copyOverlaps(const Buffer &source, Rect from, const Buffer &target, Rect to, const Region &region) {
  if (&source.root() != &target.root())
    return false;
  from.start += source.origin;
  to.start += target.origin;
  const size_t rows = region[1] * region[2];
  for (size_t i = 0, j = 0; i < rows && j < rows;) {
    size_t read = from.rowAt(i % region[1], i / region[1]), write = to.rowAt(j % region[1], j / region[1]);
    if (read + region[0] <= write)
      ++i;
    else if (write + region[0] <= read)
      ++j;
    else
      return true;
  }
  return false;
}

/// clEnqueueReadBufferRect (`toHost`) and clEnqueueWriteBufferRect: one set of checks, one row copy.
cl_int enqueueHostRect(const char *entryPoint, cl_command_queue command_queue, cl_mem buffer,
                       bool toHost, cl_bool blocking, const size_t *buffer_origin,
                       const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
                       size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                       void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                       cl_event *event) {
  Prologue p;
  Buffer *device = nullptr;
  if (cl_int error = begin(entryPoint, command_queue, {{buffer, &device}}, num_events_in_wait_list,
                           event_wait_list, p))
    return error;
  LOOM_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
  Region extent;
  Rect inBuffer, inHost;
  if (cl_int error = checkRegion(entryPoint, region, extent))
    return error;
  if (cl_int error = makeRect(entryPoint, "buffer", buffer_origin, extent, buffer_row_pitch,
                              buffer_slice_pitch, device->size, inBuffer))
    return error;
  if (cl_int error = makeRect(entryPoint, "host", host_origin, extent, host_row_pitch, host_slice_pitch,
                              SIZE_MAX - reinterpret_cast<uintptr_t>(ptr), inHost))
    return error;
  if (cl_int error = toHost ? checkHostMayRead(entryPoint, *device) : checkHostMayWrite(entryPoint, *device))
    return error;
  Ref<Buffer> keep(device);
  auto *host = static_cast<uint8_t *>(ptr);
  return submit(entryPoint, *p.queue, toHost ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT,
                std::move(p.waitList),
                [keep, host, inBuffer, inHost, extent, toHost] {
                  if (toHost)
                    copyRect(host, inHost, keep->data(), inBuffer, extent);
                  else
                    copyRect(keep->data(), inBuffer, host, inHost, extent);
                  return CommandOutcome{};
                },
                event, blocking);
}

/// clEnqueueCopyBufferRect, and clEnqueueCopyBuffer as a rect of one row.
cl_int enqueueCopy(const char *entryPoint, cl_command_type type, cl_command_queue command_queue,
                   cl_mem src_buffer, cl_mem dst_buffer, const size_t *src_origin, const size_t *dst_origin,
                   const size_t *region, size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                   size_t dst_slice_pitch, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                   cl_event *event) {
  Prologue p;
  Buffer *source = nullptr, *target = nullptr;
  if (cl_int error = begin(entryPoint, command_queue, {{src_buffer, &source}, {dst_buffer, &target}},
                           num_events_in_wait_list, event_wait_list, p))
    return error;
  Region extent;
  Rect from, to;
  if (cl_int error = checkRegion(entryPoint, region, extent))
    return error;
  if (cl_int error = makeRect(entryPoint, "src", src_origin, extent, src_row_pitch, src_slice_pitch,
                              source->size, from))
    return error;
  if (cl_int error = makeRect(entryPoint, "dst", dst_origin, extent, dst_row_pitch, dst_slice_pitch,
                              target->size, to))
    return error;
  LOOM_CHECK(source != target || (from.rowPitch == to.rowPitch && from.slicePitch == to.slicePitch),
             CL_INVALID_VALUE, "a copy within one buffer must use the same pitches on both sides");
  LOOM_CHECK(!copyOverlaps(*source, from, *target, to, extent), CL_MEM_COPY_OVERLAP,
             "source and destination regions overlap");
  Ref<Buffer> in(source), out(target);
  return submit(entryPoint, *p.queue, type, std::move(p.waitList),
                [in, out, from, to, extent] {
                  copyRect(out->data(), to, in->data(), from, extent);
                  return CommandOutcome{};
                },
                event, false);
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
  LOOM_CHECK(ptr && size && source->contains(offset, size), CL_INVALID_VALUE,
             "ptr is NULL, size is 0 or offset+size is beyond the buffer");
  if (cl_int error = checkHostMayRead(entryPoint, *source))
    return error;
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
  LOOM_CHECK(ptr && size && target->contains(offset, size), CL_INVALID_VALUE,
             "ptr is NULL, size is 0 or offset+size is beyond the buffer");
  if (cl_int error = checkHostMayWrite(entryPoint, *target))
    return error;
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
  // A rect of one row: the same checks, the overlap rule included.
  const size_t from[3] = {src_offset, 0, 0}, to[3] = {dst_offset, 0, 0}, region[3] = {size, 1, 1};
  return enqueueCopy(entryPoint, CL_COMMAND_COPY_BUFFER, command_queue, src_buffer, dst_buffer, from, to,
                     region, 0, 0, 0, 0, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                           cl_bool blocking_read, const size_t *buffer_origin,
                                           const size_t *host_origin, const size_t *region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  return enqueueHostRect(entryPoint, command_queue, buffer, true, blocking_read, buffer_origin,
                         host_origin, region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                         host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                            cl_bool blocking_write, const size_t *buffer_origin,
                                            const size_t *host_origin, const size_t *region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch,
                                            const void *ptr, cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  // A non-blocking write may read `ptr` until its event completes, as the spec allows.
  return enqueueHostRect(entryPoint, command_queue, buffer, false, blocking_write, buffer_origin,
                         host_origin, region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                         host_slice_pitch, const_cast<void *>(ptr), num_events_in_wait_list,
                         event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                           cl_mem dst_buffer, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region,
                                           size_t src_row_pitch, size_t src_slice_pitch,
                                           size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  LOOM_ENTRY();
  return enqueueCopy(entryPoint, CL_COMMAND_COPY_BUFFER_RECT, command_queue, src_buffer, dst_buffer,
                     src_origin, dst_origin, region, src_row_pitch, src_slice_pitch, dst_row_pitch,
                     dst_slice_pitch, num_events_in_wait_list, event_wait_list, event);
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
  LOOM_CHECK(target->contains(offset, size), CL_INVALID_VALUE, "offset+size is beyond the buffer");
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
    LOOM_CHECK(size && target->contains(offset, size), CL_INVALID_VALUE,
               "size is 0 or offset+size is beyond the buffer");
    constexpr cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    LOOM_CHECK(!(map_flags & ~known), CL_INVALID_VALUE, "unknown cl_map_flags bits");
    LOOM_CHECK(!((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))),
               CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE");
    if (map_flags & CL_MAP_READ)
      if (cl_int error = checkHostMayRead(entryPoint, *target))
        return error;
    if (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
      if (cl_int error = checkHostMayWrite(entryPoint, *target))
        return error;
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

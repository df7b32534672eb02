// SPDX-License-Identifier: Apache-2.0
// Pipes on both devices, through the ICD loader: kernels/pipes.cl on the board (loomc's binary:
// pipe arguments are stream ports bound at each launch to the board's FIFO of the pipe object) and
// on the CPU device (the same source), each checked against a host reference. Kernels that talk
// through pipes run at the same time, from several queues or one out-of-order queue.
#include "PipeSupport.h"

#include <algorithm>
#include <numeric>

using namespace e2e;

namespace {

const Sources PipePrograms{LOOM_E2E_PIPES_LOOM, LOOM_E2E_PIPES_CL, LOOM_E2E_PIPES_OPTIONS};

cl_mem makePipe(Setup &cl, cl_uint packetBytes, cl_uint packets) {
  cl_int err = CL_SUCCESS;
  cl_mem pipe = clCreatePipe(cl.context, 0, packetBytes, packets, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  return pipe;
}

} // namespace

TEST_CASE("a producer and a consumer move every packet in order through a shallow pipe, on both devices",
          "[e2e][pipes][board]") {
  const int n = 3000;
  std::vector<int> input(n);
  std::iota(input.begin(), input.end(), -1234);
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem src = buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(run.cl, std::vector<int>(n, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_kernel produce = run.kernel("produce"), consume = run.kernel("consume");
      // Far shallower than what moves through it: the kernels finish only by running together. Then
      // the same kernels rebound to a pipe of one packet, with nothing rebuilt.
      for (cl_uint depth : {4u, 1u}) {
        INFO("a pipe of " << depth);
        cl_mem pipe = makePipe(run.cl, sizeof(int), depth);
        setArgs(produce, pipe, src, n);
        setArgs(consume, pipe, dst, n);
        run.runTogether({{produce, 1}, {consume, 1}});
        CHECK(readBack<int>(run.cl, dst, n) == input);
        clReleaseMemObject(pipe);
      }
      INFO(run.cl.diagnosis());
      CHECK(run.cl.notes.empty());
      clReleaseMemObject(src);
      clReleaseMemObject(dst);
    }
}

TEST_CASE("a chain of four kernels runs at the same time, on both devices and either kind of queue",
          "[e2e][pipes][board]") {
  const int n = 2000;
  std::vector<int> input(n), expected(n);
  std::iota(input.begin(), input.end(), 5);
  std::transform(input.begin(), input.end(), expected.begin(), [](int v) { return (v + 1) * 2; });
  const bool outOfOrder = GENERATE(false, true);
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name << (outOfOrder ? ", one out-of-order queue" : ", four queues")) {
      PipeRun run(target, PipePrograms, outOfOrder);
      cl_mem src = buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(run.cl, std::vector<int>(n, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_mem first = makePipe(run.cl, sizeof(int), 2), second = makePipe(run.cl, sizeof(int), 8),
             third = makePipe(run.cl, sizeof(int), 3);
      cl_kernel produce = run.kernel("produce"), addOne = run.kernel("add_one"), timesTwo = run.kernel("times_two"),
                consume = run.kernel("consume");
      setArgs(produce, first, src, n);
      setArgs(addOne, first, second, n);
      setArgs(timesTwo, second, third, n);
      setArgs(consume, third, dst, n);
      run.runTogether({{produce, 1}, {addOne, 1}, {timesTwo, 1}, {consume, 1}}, outOfOrder);
      CHECK(readBack<int>(run.cl, dst, n) == expected);
      for (cl_mem object : {src, dst, first, second, third})
        clReleaseMemObject(object);
    }
}

TEST_CASE("work-items of NDRange kernels move one vector packet each, on both devices", "[e2e][pipes][board]") {
  const size_t items = 1024;
  std::vector<float> input(items);
  for (size_t i = 0; i < items; ++i)
    input[i] = float(i) * 0.25f - 17.0f;
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem src = buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(run.cl, std::vector<cl_float2>(items), CL_MEM_READ_WRITE);
      cl_mem pipe = makePipe(run.cl, sizeof(cl_float2), 16);
      cl_kernel produce = run.kernel("produce_items"), consume = run.kernel("consume_items");
      setArgs(produce, pipe, src);
      setArgs(consume, pipe, dst);
      run.runTogether({{produce, items}, {consume, items}});
      // Work-items take packets in no set order: each arrives once, whole.
      std::vector<std::pair<float, float>> got;
      for (const cl_float2 &packet : readBack<cl_float2>(run.cl, dst, items))
        got.emplace_back(packet.s[1], packet.s[0]);
      std::sort(got.begin(), got.end());
      for (size_t i = 0; i < items; ++i) {
        INFO("packet " << i);
        REQUIRE(got[i].first == float(i));
        REQUIRE(got[i].second == input[i]);
      }
      for (cl_mem object : {src, dst, pipe})
        clReleaseMemObject(object);
    }
}

TEST_CASE("packets of 1, 2, 4 and 8 bytes and of a struct keep their bits, on both devices", "[e2e][pipes][board]") {
  const int n = 50;
  std::vector<cl_ulong> expected;
  for (int i = 0; i < n; ++i) {
    const auto tag = cl_short(i - 5);
    expected.push_back(cl_uchar(i * 7));
    expected.push_back(cl_ulong(cl_long(cl_short(-300 * i))));
    expected.push_back(0x0123456789abcdefULL * cl_ulong(i + 1));
    expected.push_back(cl_ulong(cl_long(tag) * 65536 + i * 256 + (255 - i)));
  }
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem bytes = makePipe(run.cl, 1, 3), shorts = makePipe(run.cl, 2, 5), longs = makePipe(run.cl, 8, 2),
             items = makePipe(run.cl, 4, 7);
      cl_mem dst = buffer(run.cl, std::vector<cl_ulong>(4 * n), CL_MEM_READ_WRITE);
      cl_kernel produce = run.kernel("produce_sizes"), consume = run.kernel("consume_sizes");
      setArgs(produce, bytes, shorts, longs, items, n);
      setArgs(consume, bytes, shorts, longs, items, dst, n);
      run.runTogether({{produce, 1}, {consume, 1}});
      CHECK(readBack<cl_ulong>(run.cl, dst, 4 * n) == expected);
      for (cl_mem object : {bytes, shorts, longs, items, dst})
        clReleaseMemObject(object);
    }
}

TEST_CASE("packets of a float4, an int16, a long16 and a 16-byte struct travel whole, on both devices",
          "[e2e][pipes][board]") {
  struct Record {
    cl_int id;
    cl_float weight;
    cl_long stamp;
  };
  const int n = 40;
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem vectors = makePipe(run.cl, sizeof(cl_float4), 3), lines = makePipe(run.cl, sizeof(cl_int16), 2),
             longs = makePipe(run.cl, sizeof(cl_long16), 2), records = makePipe(run.cl, sizeof(Record), 5);
      cl_mem vdst = buffer(run.cl, std::vector<cl_float4>(n), CL_MEM_READ_WRITE),
             ldst = buffer(run.cl, std::vector<cl_int16>(n), CL_MEM_READ_WRITE),
             wdst = buffer(run.cl, std::vector<cl_long16>(n), CL_MEM_READ_WRITE),
             rdst = buffer(run.cl, std::vector<Record>(n), CL_MEM_READ_WRITE);
      cl_kernel produce = run.kernel("produce_wide"), consume = run.kernel("consume_wide");
      setArgs(produce, vectors, lines, longs, records, n);
      setArgs(consume, vectors, lines, longs, records, vdst, ldst, wdst, rdst, n);
      run.runTogether({{produce, 1}, {consume, 1}});
      const auto v = readBack<cl_float4>(run.cl, vdst, n);
      const auto l = readBack<cl_int16>(run.cl, ldst, n);
      const auto w = readBack<cl_long16>(run.cl, wdst, n);
      const auto r = readBack<Record>(run.cl, rdst, n);
      for (int i = 0; i < n; ++i) {
        INFO("packet " << i);
        CHECK(v[i].s[0] == float(i));
        CHECK(v[i].s[1] == float(i) + 0.5f);
        CHECK(v[i].s[2] == -float(i));
        CHECK(v[i].s[3] == float(i) * 2.0f);
        for (int k = 0; k < 16; ++k) {
          CHECK(l[i].s[k] == i + k);
          CHECK(w[i].s[k] == (cl_long(i) << 33) - k);
        }
        CHECK(r[i].id == i);
        CHECK(r[i].weight == float(i) * 0.25f);
        CHECK(r[i].stamp == cl_long(i) << 40);
      }
      for (cl_mem object : {vectors, lines, longs, records, vdst, ldst, wdst, rdst})
        clReleaseMemObject(object);
    }
}

TEST_CASE("packets of 1 KiB and of 12- and 3-byte structs travel whole, on both devices", "[e2e][pipes][board]") {
  struct Point {
    cl_float x, y, z;
  };
  struct Colour {
    cl_uchar r, g, b;
  };
  static_assert(sizeof(Point) == 12 && sizeof(Colour) == 3);
  const int n = 24;
  std::vector<cl_uchar> blocks(size_t(n) * 1024);
  for (size_t b = 0; b < blocks.size(); ++b)
    blocks[b] = cl_uchar(b * 2654435761u >> 13);
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem blockPipe = makePipe(run.cl, 1024, 3), points = makePipe(run.cl, sizeof(Point), 2),
             colours = makePipe(run.cl, sizeof(Colour), 5);
      cl_mem src = buffer(run.cl, blocks, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR), dst = buffer(run.cl, std::vector<cl_uchar>(blocks.size()), CL_MEM_READ_WRITE),
             pdst = buffer(run.cl, std::vector<Point>(n), CL_MEM_READ_WRITE),
             cdst = buffer(run.cl, std::vector<Colour>(n), CL_MEM_READ_WRITE);
      cl_kernel produce = run.kernel("produce_odd"), consume = run.kernel("consume_odd");
      setArgs(produce, src, blockPipe, points, colours, n);
      setArgs(consume, blockPipe, points, colours, dst, pdst, cdst, n);
      run.runTogether({{produce, 1}, {consume, 1}});
      CHECK(readBack<cl_uchar>(run.cl, dst, blocks.size()) == blocks);
      const auto p = readBack<Point>(run.cl, pdst, n);
      const auto c = readBack<Colour>(run.cl, cdst, n);
      for (int i = 0; i < n; ++i) {
        INFO("packet " << i);
        CHECK(p[i].x == float(i));
        CHECK(p[i].y == float(i) * 0.5f);
        CHECK(p[i].z == -float(i));
        CHECK(c[i].r == cl_uchar(i));
        CHECK(c[i].g == cl_uchar(3 * i));
        CHECK(c[i].b == cl_uchar(255 - i));
      }
      for (cl_mem object : {blockPipe, points, colours, src, dst, pdst, cdst})
        clReleaseMemObject(object);
    }
}

TEST_CASE("read_pipe and write_pipe try once: -1 and nothing moved on an empty or full pipe, on both devices",
          "[e2e][pipes][board]") {
  const size_t items = 12;
  const cl_uint depth = 8;
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem pipe = makePipe(run.cl, sizeof(int), depth);
      cl_mem status = buffer(run.cl, std::vector<int>(items, 5), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(run.cl, std::vector<int>(items, 5), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_kernel tryWrite = run.kernel("try_write"), tryRead = run.kernel("try_read");
      setArgs(tryWrite, pipe, status);
      setArgs(tryRead, pipe, dst);
      // One after the other on one queue: the writers fill the pipe, then the readers empty it.
      clReleaseEvent(launch(run.cl, tryWrite, {{items}}));
      clReleaseEvent(launch(run.cl, tryRead, {{items}}));
      const std::vector<int> written = readBack<int>(run.cl, status, items), read = readBack<int>(run.cl, dst, items);
      std::vector<int> accepted, got;
      for (size_t i = 0; i < items; ++i) {
        CHECK((written[i] == 0 || written[i] == -1));
        if (written[i] == 0)
          accepted.push_back(100 + int(i));
        if (read[i] != -1007) // -1, and the packet's memory as it was
          got.push_back(read[i]);
      }
      CHECK(accepted.size() == depth);
      std::sort(got.begin(), got.end());
      CHECK(got == accepted);
      for (cl_mem object : {pipe, status, dst})
        clReleaseMemObject(object);
    }
}

TEST_CASE("a board kernel waiting for packets that never come fails with a diagnosis", "[e2e][pipes][board]") {
  PipeRun run(Targets[0], PipePrograms);
  cl_mem pipe = makePipe(run.cl, sizeof(int), 4);
  cl_mem dst = buffer(run.cl, std::vector<int>(1), CL_MEM_READ_WRITE);
  cl_kernel starve = run.kernel("starve");
  setArgs(starve, pipe, dst);
  const size_t one = 1;
  cl_event event = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(run.cl.queue, starve, 1, nullptr, &one, nullptr, 0, nullptr, &event) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &event) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = CL_COMPLETE;
  REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
  CHECK(status < 0);
  const std::string diagnosis = run.cl.diagnosis();
  INFO(diagnosis);
  CHECK(diagnosis.find("deadlock") != std::string::npos);
  CHECK(diagnosis.find("starve") != std::string::npos);
  // The line of starve's read_pipe call.
  const std::string source = readFile(LOOM_E2E_PIPES_CL);
  const size_t call = source.find("read_pipe", source.find("__kernel void starve"));
  const auto line = std::count(source.begin(), source.begin() + call, '\n') + 1;
  CHECK(diagnosis.find("pipes.cl:" + std::to_string(line) + ":") != std::string::npos);
  clReleaseEvent(event);
  clReleaseMemObject(pipe);
  clReleaseMemObject(dst);
}

TEST_CASE("a pipe made after another is released starts empty, on both devices", "[e2e][pipes][board]") {
  const size_t items = 4;
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem status = buffer(run.cl, std::vector<int>(items, 5), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(run.cl, std::vector<int>(items, 5), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_kernel tryWrite = run.kernel("try_write"), tryRead = run.kernel("try_read");
      // Packets left in a pipe go with it, also when the next one takes its memory (the board keeps
      // a FIFO per pipe object, not per address).
      cl_mem left = makePipe(run.cl, sizeof(int), 4);
      setArgs(tryWrite, left, status);
      clReleaseEvent(launch(run.cl, tryWrite, {{3}}));
      clReleaseMemObject(left);
      cl_mem fresh = makePipe(run.cl, sizeof(int), 4);
      setArgs(tryRead, fresh, dst);
      clReleaseEvent(launch(run.cl, tryRead, {{items}}));
      CHECK(readBack<int>(run.cl, dst, items) == std::vector<int>(items, -1007));
      for (cl_mem object : {fresh, status, dst})
        clReleaseMemObject(object);
    }
}

namespace {
/// Whether `received` is blocks of `block` consecutive values, each starting at a multiple of
/// `block`, and holds every value below its size once.
bool wholeBlocks(std::vector<int> received, int block) {
  bool ordered = true;
  for (size_t b = 0; b < received.size(); b += size_t(block)) {
    for (int k = 1; k < block; ++k)
      ordered = ordered && received[b + size_t(k)] == received[b] + k;
    ordered = ordered && received[b] % block == 0;
  }
  std::sort(received.begin(), received.end());
  std::vector<int> all(received.size());
  std::iota(all.begin(), all.end(), 0);
  return ordered && received == all;
}
} // namespace

TEST_CASE("reservations of work-items keep their packets together while both kernels run, on both devices",
          "[e2e][pipes][board]") {
  const size_t items = 256;
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_kernel produce = run.kernel("produce_reserved"), consume = run.kernel("consume_reserved");
      // Readers of a writer's 4 packets at once, and of 2 (half a writer's reservation): a pipe of
      // two reservations, so the kernels finish only together.
      for (const int perItem : {4, 2}) {
        INFO(perItem << " packets per reader");
        const size_t packets = items * 4;
        cl_mem pipe = makePipe(run.cl, sizeof(int), 8);
        cl_mem dst = buffer(run.cl, std::vector<int>(packets, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
        setArgs(produce, pipe, 4);
        setArgs(consume, pipe, dst, perItem);
        run.runTogether({{produce, items}, {consume, packets / size_t(perItem)}});
        // A reader's packets are consecutive ones of one writer's reservation; the readers come in
        // any order.
        CHECK(wholeBlocks(readBack<int>(run.cl, dst, packets), perItem));
        clReleaseMemObject(pipe);
        clReleaseMemObject(dst);
      }
      INFO(run.cl.diagnosis());
      CHECK(run.cl.notes.empty());
    }
}

TEST_CASE("reservations of work-groups hold a packet per work-item at its local id, on both devices",
          "[e2e][pipes][board]") {
  const size_t items = 512, local = 64;
  std::vector<int> input(items);
  std::iota(input.begin(), input.end(), 0);
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem src = buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      cl_mem dst = buffer(run.cl, std::vector<int>(items, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_mem pipe = makePipe(run.cl, sizeof(int), cl_uint(items));
      cl_kernel produce = run.kernel("produce_group_reserved"), consume = run.kernel("consume_group_reserved");
      setArgs(produce, pipe, src);
      setArgs(consume, pipe, dst);
      // One after the other, as the CTS runs them: every reservation fits.
      clReleaseEvent(launch(run.cl, produce, {{items}, {local}}));
      clReleaseEvent(launch(run.cl, consume, {{items}, {local}}));
      // A reader group's reservation is one writer group's: its packets in local id order.
      CHECK(wholeBlocks(readBack<int>(run.cl, dst, items), int(local)));
      for (cl_mem object : {src, dst, pipe})
        clReleaseMemObject(object);
    }
}

TEST_CASE("a reservation is refused without room, and the pipe reports its packets and depth, on both devices",
          "[e2e][pipes][board]") {
  const std::vector<int> want{3, 9, 5}; // into a pipe of 8: fits, more than the room left, exactly the room
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem pipe = makePipe(run.cl, sizeof(int), 8);
      cl_mem wanted = buffer(run.cl, want, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      cl_mem answers = buffer(run.cl, std::vector<int>(9, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_kernel ask = run.kernel("reserve_and_ask");
      setArgs(ask, pipe, wanted, answers);
      for (size_t i = 0; i < want.size(); ++i)
        clReleaseEvent(launch(run.cl, ask, {{1}, {}, {i}}));
      CHECK(readBack<int>(run.cl, answers, 9) == std::vector<int>{1, 3, 8, 0, 3, 8, 1, 8, 8});
      for (cl_mem object : {pipe, wanted, answers})
        clReleaseMemObject(object);
    }
}

TEST_CASE("several calls on one pipe take turns at its port, each work-item's in order, on both devices",
          "[e2e][pipes][board]") {
  const int n = 500;
  std::vector<int> pairs;
  for (int i = 0; i < n; ++i)
    pairs.insert(pairs.end(), {i, i * i});
  const size_t items = 128;
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem pipe = makePipe(run.cl, sizeof(int), 3);
      cl_mem dst = buffer(run.cl, std::vector<int>(2 * n, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_kernel produce = run.kernel("produce_pairs"), consume = run.kernel("consume_pairs");
      setArgs(produce, pipe, n);
      setArgs(consume, pipe, dst, n);
      run.runTogether({{produce, 1}, {consume, 1}});
      CHECK(readBack<int>(run.cl, dst, 2 * size_t(n)) == pairs);
      // Four writes of one reservation by each of many work-items: the reservations stay whole.
      cl_mem reserved = makePipe(run.cl, sizeof(int), 8);
      cl_mem blocks = buffer(run.cl, std::vector<int>(items * 4, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
      cl_kernel produceFour = run.kernel("produce_reserved_four"), consumeFour = run.kernel("consume_reserved");
      setArgs(produceFour, reserved);
      setArgs(consumeFour, reserved, blocks, 4);
      run.runTogether({{produceFour, items}, {consumeFour, items}});
      CHECK(wholeBlocks(readBack<int>(run.cl, blocks, items * 4), 4));
      for (cl_mem object : {pipe, dst, reserved, blocks})
        clReleaseMemObject(object);
    }
}

TEST_CASE("a kernel writing to a pipe chosen by the data (switch, if/else) routes each value, on both devices",
          "[e2e][pipes][board]") {
  const int n = 600;
  std::vector<int> input(n);
  for (int i = 0; i < n; ++i)
    input[i] = (i * 7919) % 1000;
  // Each pipe's values in order: by v % 3, then by parity.
  std::vector<std::vector<int>> expected(5);
  for (int v : input) {
    expected[v % 3].push_back(v);
    expected[3 + (v & 1 ? 0 : 1)].push_back(v);
  }
  for (const Target &target : Targets)
    DYNAMIC_SECTION(target.name) {
      PipeRun run(target, PipePrograms);
      cl_mem src = buffer(run.cl, input, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
      std::vector<cl_mem> pipes;
      for (int k = 0; k < 5; ++k)
        pipes.push_back(makePipe(run.cl, sizeof(int), n)); // Room for all: route runs alone.
      cl_kernel route = run.kernel("route");
      setArgs(route, src, pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], n);
      run.runTogether({{route, 1}});
      for (int k = 0; k < 5; ++k) {
        INFO("pipe " << k);
        const int count = int(expected[k].size());
        cl_mem dst = buffer(run.cl, std::vector<int>(count, -1), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
        cl_kernel consume = run.kernel("consume");
        setArgs(consume, pipes[k], dst, count);
        run.runTogether({{consume, 1}});
        CHECK(readBack<int>(run.cl, dst, count) == expected[k]);
        clReleaseMemObject(dst);
      }
      INFO(run.cl.diagnosis());
      CHECK(run.cl.notes.empty());
      for (cl_mem object : pipes)
        clReleaseMemObject(object);
      clReleaseMemObject(src);
    }
}

// SPDX-License-Identifier: Apache-2.0
// OpenCL 2.0 pipes on the CPU device, through the ICD loader: producer and consumer kernels running
// at the same time from two queues, or from one out-of-order queue, through pipes shallower than
// what they move; packets of scalars, vectors and structs; reservations of work-items, work-groups
// and sub-groups; the pipe queries; deadlocks diagnosed instead of hanging (LOOM_PIPE_DEADLOCK_MS is
// short here); and the API's failure paths. The board's pipes are PipesBoardTest.cpp's; here, what
// its hardware flow refuses yet, at the line.
#include "DifferentialSupport.h"

#include <algorithm>
#include <numeric>

using namespace e2e;

namespace {

const char *const PipeSource = R"(
typedef struct { int id; float weight; short tag; } item;

// One work-item each: the packets keep their order.
__kernel void produce(__write_only pipe int out, __global const int *src, int n) {
  for (int i = 0; i < n; ++i)
    while (write_pipe(out, &src[i]) != 0)
      ;
}
__kernel void consume(__read_only pipe int in, __global int *dst, int n) {
  for (int i = 0; i < n; ++i)
    while (read_pipe(in, &dst[i]) != 0)
      ;
}

// Every work-item moves one packet of a struct and one of a float4.
__kernel void produce_items(__write_only pipe item out, __write_only pipe float4 vectors) {
  const int i = get_global_id(0);
  item packet = {i, i * 0.5f, (short)-i};
  while (write_pipe(out, &packet) != 0)
    ;
  float4 v = (float4)(i, i + 1, i + 2, i + 3);
  while (write_pipe(vectors, &v) != 0)
    ;
}
__kernel void consume_items(__read_only pipe item in, __read_only pipe float4 vectors,
                            __global item *dst, __global float4 *vdst) {
  const int i = get_global_id(0);
  while (read_pipe(in, &dst[i]) != 0)
    ;
  while (read_pipe(vectors, &vdst[i]) != 0)
    ;
}

// Reservations: each work-item 4 packets, each work-group and each sub-group one per work-item, in
// order of their local ids.
__kernel void produce_reserved(__write_only pipe int out, int scope) {
  const int lid = get_local_id(0), base = get_group_id(0) * get_local_size(0);
  if (scope == 0) {
    reserve_id_t r;
    do
      r = reserve_write_pipe(out, 4);
    while (!is_valid_reserve_id(r));
    for (int k = 0; k < 4; ++k) {
      int v = (base + lid) * 4 + k;
      write_pipe(out, r, k, &v);
    }
    commit_write_pipe(out, r);
  } else if (scope == 1) {
    reserve_id_t r;
    do
      r = work_group_reserve_write_pipe(out, get_local_size(0));
    while (!is_valid_reserve_id(r));
    int v = base + lid;
    write_pipe(out, r, lid, &v);
    work_group_commit_write_pipe(out, r);
  } else {
    reserve_id_t r;
    do
      r = sub_group_reserve_write_pipe(out, get_sub_group_size());
    while (!is_valid_reserve_id(r));
    int v = base + lid;
    write_pipe(out, r, get_sub_group_local_id(), &v);
    sub_group_commit_write_pipe(out, r);
  }
}
__kernel void consume_reserved(__read_only pipe int in, __global int *dst, int per_item) {
  const int i = get_global_id(0);
  reserve_id_t r;
  do
    r = reserve_read_pipe(in, per_item);
  while (!is_valid_reserve_id(r));
  for (int k = 0; k < per_item; ++k)
    read_pipe(in, r, k, &dst[i * per_item + k]);
  commit_read_pipe(in, r);
}

// What the pipe functions say of a pipe of 8 with 3 packets in it.
__kernel void queries(__write_only pipe int out, __global int *answers) {
  for (int i = 0; i < 3; ++i)
    answers[i] = write_pipe(out, &i);
  answers[3] = get_pipe_num_packets(out);
  answers[4] = get_pipe_max_packets(out);
  answers[5] = is_valid_reserve_id(reserve_write_pipe(out, 9)); // more than the pipe holds
  reserve_id_t r = reserve_write_pipe(out, 5);                  // exactly the room left
  answers[6] = is_valid_reserve_id(r);
  answers[7] = is_valid_reserve_id(reserve_write_pipe(out, 1)); // full
  commit_write_pipe(out, r);
  answers[8] = get_pipe_num_packets(out);
  answers[9] = is_valid_reserve_id(CLK_NULL_RESERVE_ID);
}
)";

cl_mem makePipe(cl_context context, cl_uint packetBytes, cl_uint packets) {
  cl_int err = CL_SUCCESS;
  cl_mem pipe = clCreatePipe(context, 0, packetBytes, packets, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  return pipe;
}

cl_kernel makeKernel(cl_program program, const char *name) {
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &err);
  REQUIRE(err == CL_SUCCESS);
  return kernel;
}

/// Sets all of `kernel`'s arguments, in order.
template <typename... Args> void setArgs(cl_kernel kernel, const Args &...values) {
  cl_uint index = 0;
  (setArg(kernel, index++, values), ...);
}

/// The CPU device with a second in-order queue: the consumer's, so that it runs beside the producer.
struct PipeSetup : CpuSetup {
  cl_command_queue other = nullptr;
  cl_program program = nullptr;
  PipeSetup() {
    cl_int err = CL_SUCCESS;
    other = clCreateCommandQueue(context, device, 0, &err);
    REQUIRE(err == CL_SUCCESS);
    program = build(PipeSource, "-cl-std=CL3.0");
  }
  ~PipeSetup() {
    clReleaseProgram(program);
    clReleaseCommandQueue(other);
  }
  /// Runs `consumer` on the second queue, then `producer` (in groups of `local`, if given) on the
  /// first, and waits for both.
  void runPair(cl_kernel producer, size_t producerItems, cl_kernel consumer, size_t consumerItems,
               size_t local = 0) {
    const size_t *group = local ? &local : nullptr;
    REQUIRE(clEnqueueNDRangeKernel(other, consumer, 1, nullptr, &consumerItems, nullptr, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    REQUIRE(clFlush(other) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(queue, producer, 1, nullptr, &producerItems, group, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    REQUIRE(clFinish(queue) == CL_SUCCESS);
    REQUIRE(clFinish(other) == CL_SUCCESS);
  }
};

} // namespace

TEST_CASE("a producer and a consumer run at the same time through a shallow pipe", "[e2e][pipes]") {
  PipeSetup setup;
  const int n = 10000;
  std::vector<int> input(n);
  std::iota(input.begin(), input.end(), -17);
  cl_mem pipe = makePipe(setup.context, sizeof(int), 4);
  cl_mem src = buffer(setup, input, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  cl_mem dst = buffer(setup, std::vector<int>(n), CL_MEM_READ_WRITE);
  cl_kernel producer = makeKernel(setup.program, "produce"), consumer = makeKernel(setup.program, "consume");
  setArgs(producer, pipe, src, n);
  setArgs(consumer, pipe, dst, n);
  setup.runPair(producer, 1, consumer, 1);
  CHECK(readBack<int>(setup, dst, n) == input);
  CHECK(setup.diagnosis().empty());

  cl_mem_object_type type = 0;
  REQUIRE(clGetMemObjectInfo(pipe, CL_MEM_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_MEM_OBJECT_PIPE);
  cl_mem_flags flags = 0;
  REQUIRE(clGetMemObjectInfo(pipe, CL_MEM_FLAGS, sizeof flags, &flags, nullptr) == CL_SUCCESS);
  CHECK(flags == (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS));
  cl_uint packetSize = 0, maxPackets = 0;
  REQUIRE(clGetPipeInfo(pipe, CL_PIPE_PACKET_SIZE, sizeof packetSize, &packetSize, nullptr) == CL_SUCCESS);
  REQUIRE(clGetPipeInfo(pipe, CL_PIPE_MAX_PACKETS, sizeof maxPackets, &maxPackets, nullptr) == CL_SUCCESS);
  CHECK(packetSize == sizeof(int));
  CHECK(maxPackets == 4);
  size_t propertiesSize = 1;
  REQUIRE(clGetPipeInfo(pipe, CL_PIPE_PROPERTIES, 0, nullptr, &propertiesSize) == CL_SUCCESS);
  CHECK(propertiesSize == 0);

  for (cl_mem object : {pipe, src, dst})
    clReleaseMemObject(object);
  clReleaseKernel(producer);
  clReleaseKernel(consumer);
}

TEST_CASE("a consumer enqueued first on an out-of-order queue runs beside its producer", "[e2e][pipes]") {
  CpuSetup setup(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_program program = setup.build(PipeSource, "-cl-std=CL3.0");
  const int n = 2000;
  std::vector<int> input(n);
  std::iota(input.begin(), input.end(), 3);
  cl_mem pipe = makePipe(setup.context, sizeof(int), 8);
  cl_mem src = buffer(setup, input, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  cl_mem dst = buffer(setup, std::vector<int>(n), CL_MEM_READ_WRITE);
  cl_kernel producer = makeKernel(program, "produce"), consumer = makeKernel(program, "consume");
  setArgs(producer, pipe, src, n);
  setArgs(consumer, pipe, dst, n);
  REQUIRE(clEnqueueTask(setup.queue, consumer, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueTask(setup.queue, producer, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(setup.queue) == CL_SUCCESS);
  CHECK(readBack<int>(setup, dst, n) == input);
  CHECK(setup.diagnosis().empty());
  for (cl_mem object : {pipe, src, dst})
    clReleaseMemObject(object);
  clReleaseKernel(producer);
  clReleaseKernel(consumer);
  clReleaseProgram(program);
}

TEST_CASE("many work-items move struct and vector packets through pipes", "[e2e][pipes]") {
  PipeSetup setup;
  struct Item {
    cl_int id;
    cl_float weight;
    cl_short tag;
  };
  const size_t items = 4096;
  cl_mem pipe = makePipe(setup.context, sizeof(Item), 64), vectors = makePipe(setup.context, sizeof(cl_float4), 16);
  cl_mem dst = buffer(setup, std::vector<Item>(items), CL_MEM_READ_WRITE), vdst = buffer(setup, std::vector<cl_float4>(items), CL_MEM_READ_WRITE);
  cl_kernel producer = makeKernel(setup.program, "produce_items");
  cl_kernel consumer = makeKernel(setup.program, "consume_items");
  setArgs(producer, pipe, vectors);
  setArgs(consumer, pipe, vectors, dst, vdst);
  setup.runPair(producer, items, consumer, items, 64);
  // Work-items of different groups run in no set order: every packet arrives once, whole.
  auto received = readBack<Item>(setup, dst, items);
  std::sort(received.begin(), received.end(), [](const Item &a, const Item &b) { return a.id < b.id; });
  bool whole = true;
  for (size_t i = 0; i < items; ++i)
    whole = whole && received[i].id == cl_int(i) && received[i].weight == i * 0.5f && received[i].tag == -cl_short(i);
  CHECK(whole);
  auto vectorsReceived = readBack<cl_float4>(setup, vdst, items);
  std::vector<bool> seen(items, false);
  for (const cl_float4 &v : vectorsReceived) {
    const auto first = size_t(v.s[0]);
    if (first < items && v.s[1] == first + 1 && v.s[2] == first + 2 && v.s[3] == first + 3)
      seen[first] = true;
  }
  CHECK(std::count(seen.begin(), seen.end(), true) == long(items));

  for (cl_mem object : {pipe, vectors, dst, vdst})
    clReleaseMemObject(object);
  clReleaseKernel(producer);
  clReleaseKernel(consumer);
}

TEST_CASE("reservations of work-items, work-groups and sub-groups keep their packets together", "[e2e][pipes]") {
  PipeSetup setup;
  const size_t items = 1024, local = 64;
  cl_kernel producer = makeKernel(setup.program, "produce_reserved");
  cl_kernel consumer = makeKernel(setup.program, "consume_reserved");
  size_t subGroupSize = 0;
  REQUIRE(clGetKernelSubGroupInfo(producer, setup.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
                                  &local, sizeof subGroupSize, &subGroupSize, nullptr) == CL_SUCCESS);
  REQUIRE(subGroupSize > 1);
  struct Scope {
    int code;
    cl_int perItem; ///< Packets a producing work-item writes.
    cl_int block;   ///< Packets one reservation holds, in order: what a consuming work-item reads.
    const char *name;
  };
  for (const Scope &scope : {Scope{0, 4, 4, "work-item"}, Scope{1, 1, cl_int(local), "work-group"},
                             Scope{2, 1, cl_int(subGroupSize), "sub-group"}}) {
    INFO(scope.name << " reservations");
    const size_t packets = items * scope.perItem;
    cl_mem pipe = makePipe(setup.context, sizeof(int), 2 * cl_uint(local));
    cl_mem dst = buffer(setup, std::vector<int>(packets), CL_MEM_READ_WRITE);
    setArgs(producer, pipe, scope.code);
    setArgs(consumer, pipe, dst, scope.block);
    setup.runPair(producer, items, consumer, packets / scope.block, local);
    auto received = readBack<int>(setup, dst, packets);
    // Each block is one reservation's packets, in order; the blocks come in any order.
    bool ordered = true;
    for (size_t b = 0; b < packets; b += scope.block) {
      for (int k = 1; k < scope.block; ++k)
        ordered = ordered && received[b + k] == received[b] + k;
      ordered = ordered && received[b] % scope.block == 0;
    }
    CHECK(ordered);
    std::sort(received.begin(), received.end());
    std::vector<int> all(packets);
    std::iota(all.begin(), all.end(), 0);
    CHECK(received == all);
    clReleaseMemObject(pipe);
    clReleaseMemObject(dst);
  }
  CHECK(setup.diagnosis().empty());
  clReleaseKernel(producer);
  clReleaseKernel(consumer);
}

TEST_CASE("the pipe functions report packets, capacity and reservations", "[e2e][pipes]") {
  PipeSetup setup;
  cl_mem pipe = makePipe(setup.context, sizeof(int), 8);
  cl_mem answers = buffer(setup, std::vector<int>(10), CL_MEM_READ_WRITE);
  cl_kernel kernel = makeKernel(setup.program, "queries");
  setArgs(kernel, pipe, answers);
  REQUIRE(clEnqueueTask(setup.queue, kernel, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(readBack<int>(setup, answers, 10) == std::vector<int>{0, 0, 0, 3, 8, 0, 1, 0, 8, 0});
  clReleaseMemObject(pipe);
  clReleaseMemObject(answers);
  clReleaseKernel(kernel);
}

TEST_CASE("kernels blocked on pipes fail with a diagnosis instead of hanging", "[e2e][pipes]") {
  PipeSetup setup;
  cl_mem empty = makePipe(setup.context, sizeof(int), 4), full = makePipe(setup.context, sizeof(int), 2);
  cl_mem src = buffer(setup, std::vector<int>(16), CL_MEM_READ_WRITE), dst = buffer(setup, std::vector<int>(16), CL_MEM_READ_WRITE);
  cl_kernel producer = makeKernel(setup.program, "produce"), consumer = makeKernel(setup.program, "consume");
  // The consumer waits for 16 packets nobody writes; the producer fills a pipe of 2 that nobody reads.
  setArgs(consumer, empty, dst, 16);
  setArgs(producer, full, src, 16);
  cl_event consumed = nullptr, produced = nullptr;
  const size_t one = 1;
  REQUIRE(clEnqueueNDRangeKernel(setup.other, consumer, 1, nullptr, &one, nullptr, 0, nullptr, &consumed) ==
          CL_SUCCESS);
  REQUIRE(clFlush(setup.other) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(setup.queue, producer, 1, nullptr, &one, nullptr, 0, nullptr, &produced) ==
          CL_SUCCESS);
  CHECK(clWaitForEvents(1, &consumed) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(clWaitForEvents(1, &produced) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  for (cl_event event : {consumed, produced}) {
    cl_int status = 0;
    REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    CHECK(status < 0);
    clReleaseEvent(event);
  }
  const std::string diagnosis = setup.diagnosis();
  INFO(diagnosis);
  CHECK(diagnosis.find("deadlock") != std::string::npos);
  CHECK(diagnosis.find("kernel 'consume' waits at program.cl:12:12 to read from pipe 'in' (0 of 4 packets in it)") !=
        std::string::npos);
  CHECK(diagnosis.find("kernel 'produce' waits at program.cl:7:12 to write to pipe 'out' (2 of 2 packets in it)") !=
        std::string::npos);

  for (cl_mem object : {empty, full, src, dst})
    clReleaseMemObject(object);
  clReleaseKernel(producer);
  clReleaseKernel(consumer);

  // The device runs pipes again afterwards (on new queues: a failed command fails what its queue
  // runs after it).
  PipeSetup fresh;
  std::vector<int> input(16);
  std::iota(input.begin(), input.end(), 5);
  cl_mem pipe = makePipe(fresh.context, sizeof(int), 4);
  src = buffer(fresh, input, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  dst = buffer(fresh, std::vector<int>(input.size()), CL_MEM_READ_WRITE);
  producer = makeKernel(fresh.program, "produce");
  consumer = makeKernel(fresh.program, "consume");
  setArgs(producer, pipe, src, 16);
  setArgs(consumer, pipe, dst, 16);
  fresh.runPair(producer, 1, consumer, 1);
  CHECK(readBack<int>(fresh, dst, input.size()) == input);
  for (cl_mem object : {pipe, src, dst})
    clReleaseMemObject(object);
  clReleaseKernel(producer);
  clReleaseKernel(consumer);
}

TEST_CASE("pipes reject what the spec forbids", "[e2e][pipes]") {
  PipeSetup setup;
  cl_int err = CL_SUCCESS;
  CHECK(clCreatePipe(setup.context, CL_MEM_READ_ONLY, 4, 4, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreatePipe(setup.context, 0, 0, 4, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_PIPE_SIZE);
  CHECK(clCreatePipe(setup.context, 0, 4, 0, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_PIPE_SIZE);
  cl_uint largest = 0;
  REQUIRE(clGetDeviceInfo(setup.device, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof largest, &largest, nullptr) ==
          CL_SUCCESS);
  CHECK(clCreatePipe(setup.context, 0, largest + 1, 4, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_PIPE_SIZE);
  const cl_pipe_properties properties[] = {0x1234, 1, 0};
  CHECK(clCreatePipe(setup.context, 0, 4, 4, properties, &err) == nullptr);
  CHECK(err == CL_INVALID_VALUE);
  CHECK(clCreatePipe(nullptr, 0, 4, 4, nullptr, &err) == nullptr);
  CHECK(err == CL_INVALID_CONTEXT);

  cl_mem pipe = makePipe(setup.context, sizeof(int), 4);
  cl_mem plain = buffer(setup, std::vector<char>(64), CL_MEM_READ_WRITE);
  cl_uint value = 0;
  CHECK(clGetPipeInfo(plain, CL_PIPE_PACKET_SIZE, sizeof value, &value, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clGetPipeInfo(pipe, 0x1234, sizeof value, &value, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetPipeInfo(pipe, CL_PIPE_PACKET_SIZE, 1, &value, nullptr) == CL_INVALID_VALUE);
  int data[4] = {};
  CHECK(clEnqueueReadBuffer(setup.queue, pipe, CL_TRUE, 0, sizeof data, data, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  const cl_buffer_region region{0, 16};
  CHECK(clCreateSubBuffer(pipe, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err) == nullptr);
  CHECK(err == CL_INVALID_MEM_OBJECT);

  cl_kernel producer = makeKernel(setup.program, "produce");
  CHECK(clSetKernelArg(producer, 0, sizeof plain, &plain) == CL_INVALID_MEM_OBJECT); // a buffer for a pipe
  CHECK(clSetKernelArg(producer, 1, sizeof pipe, &pipe) == CL_INVALID_MEM_OBJECT);     // a pipe for a buffer
  CHECK(clSetKernelArg(producer, 0, sizeof pipe, nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(producer, 0, 4, &pipe) == CL_INVALID_ARG_SIZE);
  cl_kernel_arg_type_qualifier qualifier = 0;
  REQUIRE(clGetKernelArgInfo(producer, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof qualifier, &qualifier, nullptr) ==
          CL_SUCCESS);
  CHECK(qualifier == CL_KERNEL_ARG_TYPE_PIPE);
  cl_kernel_arg_access_qualifier access = 0;
  REQUIRE(clGetKernelArgInfo(producer, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, nullptr) ==
          CL_SUCCESS);
  CHECK(access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);

  // What OpenCL C forbids is a build error at its line.
  const std::string log = setup.failedBuild("__kernel void both(__read_write pipe int p) {}\n", "-cl-std=CL3.0");
  CHECK(log.find("program.cl:1:") != std::string::npos);
  CHECK(log.find("pipe") != std::string::npos);

  std::string many = "__kernel void many(";
  for (int i = 0; i < 17; ++i)
    many += std::string(i ? ", " : "") + "__read_only pipe int p" + std::to_string(i);
  CHECK(setup.failedBuild(many + ") {}\n", "-cl-std=CL3.0").find("takes 17 pipes") != std::string::npos);

  // A kernel cannot read from and write to the same pipe object: its launch is refused.
  cl_program relayProgram = setup.build("__kernel void relay(__read_only pipe int in, __write_only pipe int out) {\n"
                                        "  int v;\n"
                                        "  if (read_pipe(in, &v) == 0)\n"
                                        "    write_pipe(out, &v);\n"
                                        "}\n",
                                        "-cl-std=CL3.0");
  cl_kernel relay = makeKernel(relayProgram, "relay");
  setArgs(relay, pipe, pipe);
  const size_t one = 1;
  CHECK(clEnqueueNDRangeKernel(setup.queue, relay, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_KERNEL_ARGS);
  cl_mem other = makePipe(setup.context, sizeof(int), 4);
  setArg(relay, 1, other);
  CHECK(clEnqueueNDRangeKernel(setup.queue, relay, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clFinish(setup.queue) == CL_SUCCESS);

  clReleaseKernel(relay);
  clReleaseProgram(relayProgram);
  clReleaseMemObject(other);
  clReleaseKernel(producer);
  clReleaseMemObject(pipe);
  clReleaseMemObject(plain);
}

TEST_CASE("the board refuses the pipe functions its hardware flow does not take yet, at their line", "[e2e][pipes]") {
  Setup setup(boardDevice());
  cl_int err = CL_SUCCESS;
  cl_mem pipe = clCreatePipe(setup.context, 0, 4, 4, nullptr, &err);
  CHECK(err == CL_SUCCESS);
  clReleaseMemObject(pipe);
  // Each refused kernel, and what its build log must say.
  const struct {
    const char *source;
    std::vector<const char *> says;
  } refusals[] = {
      {"__kernel void forward(__read_only pipe int in, __global int *out) {\n"
       "  read_pipe(in, out);\n"
       "  reserve_id_t r = reserve_read_pipe(in, 2);\n"
       "  read_pipe(in, r, 0, out + 1);\n"
       "  commit_read_pipe(in, r);\n"
       "}\n",
       {"program.cl:3:", "two arguments and reservations on one pipe"}},

      {"typedef struct { long16 a[16]; } pair;\n"
       "__kernel void forward(__read_only pipe pair in, __global pair *out) {\n"
       "  read_pipe(in, out);\n"
       "}\n",
       {"program.cl:3:", "2048-byte packets"}},
  };
  for (const auto &refusal : refusals) {
    const std::string log = setup.failedBuild(refusal.source, "-cl-std=CL3.0");
    INFO(log);
    for (const char *text : refusal.says)
      CHECK(log.find(text) != std::string::npos);
  }
}

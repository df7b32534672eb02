// SPDX-License-Identifier: Apache-2.0
// OpenCL 3.0 on both devices, through the ICD loader: the version queries, the *_WITH_VERSION lists
// against the strings they replace, the feature macros a kernel sees against
// CL_DEVICE_OPENCL_C_FEATURES, and the entry points 3.0 makes core (clCreateBufferWithProperties,
// clSetContextDestructorCallback, clCloneKernel) with their failure paths.
#include "DifferentialSupport.h"

#include <algorithm>

using namespace e2e;

namespace {

std::vector<cl_name_version> nameVersions(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  REQUIRE(clGetDeviceInfo(device, what, 0, nullptr, &size) == CL_SUCCESS);
  REQUIRE(size % sizeof(cl_name_version) == 0);
  std::vector<cl_name_version> list(size / sizeof(cl_name_version));
  REQUIRE(clGetDeviceInfo(device, what, size, list.data(), nullptr) == CL_SUCCESS);
  return list;
}

template <typename T> T deviceValue(cl_device_id device, cl_device_info what) {
  T value{};
  REQUIRE(clGetDeviceInfo(device, what, sizeof value, &value, nullptr) == CL_SUCCESS);
  return value;
}

bool hasName(const std::vector<cl_name_version> &list, const std::string &name) {
  return std::any_of(list.begin(), list.end(), [&](const cl_name_version &entry) { return name == entry.name; });
}

/// The OpenCL C 3.0 optional features, in the order the kernel below reports them.
const std::vector<std::string> FeatureNames = {
    "__opencl_c_3d_image_writes", "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices", "__opencl_c_device_enqueue",
    "__opencl_c_generic_address_space", "__opencl_c_fp64", "__opencl_c_images", "__opencl_c_int64",
    "__opencl_c_pipes", "__opencl_c_program_scope_global_variables", "__opencl_c_read_write_images",
    "__opencl_c_subgroups", "__opencl_c_work_group_collective_functions"};

std::string featureKernel() {
  std::string source = "__kernel void features(__global int *out) {\n"
                       "  out[0] = __OPENCL_VERSION__;\n"
                       "  out[1] = __OPENCL_C_VERSION__;\n";
  for (size_t i = 0; i < FeatureNames.size(); ++i)
    source += "#ifdef " + FeatureNames[i] + "\n  out[" + std::to_string(i + 2) + "] = 1;\n#else\n  out[" +
              std::to_string(i + 2) + "] = 0;\n#endif\n";
  return source + "}\n";
}

} // namespace

TEST_CASE("the platform and both devices report OpenCL 3.0 and answer its queries", "[e2e][opencl30]") {
  cl_platform_id platform = loomPlatform();
  CHECK(platformString(platform, CL_PLATFORM_VERSION).rfind("OpenCL 3.0 Loom ", 0) == 0);
  cl_version platformVersion = 0;
  REQUIRE(clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof platformVersion, &platformVersion,
                            nullptr) == CL_SUCCESS);
  CHECK(platformVersion == CL_MAKE_VERSION(3, 0, 0));
  cl_name_version icd{};
  REQUIRE(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, sizeof icd, &icd, nullptr) == CL_SUCCESS);
  CHECK(std::string(icd.name) == "cl_khr_icd");

  for (cl_device_id device : {cpuDevice(), boardDevice()}) {
      const bool cpu = device == cpuDevice();
      INFO(deviceString(device, CL_DEVICE_NAME));
      CHECK(deviceString(device, CL_DEVICE_VERSION) == "OpenCL 3.0 Loom");
      CHECK(deviceValue<cl_version>(device, CL_DEVICE_NUMERIC_VERSION) == CL_MAKE_VERSION(3, 0, 0));
      CHECK(deviceString(device, CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C 1.2 ", 0) == 0);

      // OpenCL C 1.0 to 1.2 and 3.0; not 2.0, whose optional-in-3.0 features are all missing.
      std::vector<cl_version> languages;
      for (const cl_name_version &entry : nameVersions(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS)) {
        CHECK(std::string(entry.name) == "OpenCL C");
        languages.push_back(entry.version);
      }
      CHECK(languages == std::vector<cl_version>{CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0),
                                                 CL_MAKE_VERSION(1, 2, 0), CL_MAKE_VERSION(3, 0, 0)});

      // The versioned list names exactly the string's extensions, in order.
      std::string joined;
      for (const cl_name_version &entry : nameVersions(device, CL_DEVICE_EXTENSIONS_WITH_VERSION))
        joined += (joined.empty() ? "" : " ") + std::string(entry.name);
      CHECK(joined == deviceString(device, CL_DEVICE_EXTENSIONS));
      CHECK(joined.find("cl_khr_global_int32_base_atomics") != std::string::npos);
      CHECK(joined.find("cl_khr_int64_base_atomics") != std::string::npos);
      // cl_khr_subgroups requires independent forward progress of sub-groups: the CPU's yield.
      CHECK((joined.find("cl_khr_subgroups") != std::string::npos) == cpu);
      CHECK(deviceValue<cl_bool>(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS) == (cpu ? CL_TRUE : CL_FALSE));

      auto features = nameVersions(device, CL_DEVICE_OPENCL_C_FEATURES);
      for (const cl_name_version &entry : features) {
        CHECK(std::string(entry.name).rfind("__opencl_c_", 0) == 0);
        CHECK(entry.version == CL_MAKE_VERSION(3, 0, 0));
      }
      CHECK(hasName(features, "__opencl_c_int64"));
      CHECK(hasName(features, "__opencl_c_subgroups"));
      CHECK(hasName(features, "__opencl_c_work_group_collective_functions"));
      CHECK(deviceValue<cl_bool>(device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE);
      // Pipes on both (PipesTest.cpp), with at least OpenCL 3.0's limits.
      CHECK(hasName(features, "__opencl_c_pipes"));
      CHECK(deviceValue<cl_bool>(device, CL_DEVICE_PIPE_SUPPORT) == CL_TRUE);
      CHECK(deviceValue<cl_uint>(device, CL_DEVICE_MAX_PIPE_ARGS) == 16u);
      CHECK(deviceValue<cl_uint>(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE) >= 1024);
      CHECK(deviceValue<cl_uint>(device, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS) >= 1);
      // On both (Clang requires it for pipes): the board's compiler must see which space a generic
      // pointer comes from.
      CHECK(hasName(features, "__opencl_c_generic_address_space"));
      CHECK(deviceValue<cl_bool>(device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE);
      CHECK(deviceValue<cl_bool>(device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT) == CL_TRUE);
      CHECK(deviceValue<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES) == 0);
      CHECK(deviceValue<cl_device_device_enqueue_capabilities>(device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) == 0);
      // The minimum OpenCL 3.0 asks of every device.
      const auto atomics = deviceValue<cl_device_atomic_capabilities>(device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
      CHECK((atomics & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)) ==
            (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
      const auto fences = deviceValue<cl_device_atomic_capabilities>(device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
      CHECK((fences & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0);
      // The CPU's atomics are sequentially consistent for the device and its host, and say so in both
      // lists; the board promises the minimum.
      const cl_device_atomic_capabilities strong = CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                                   CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
      CHECK((atomics & strong) == (cpu ? strong : 0));
      CHECK(hasName(features, "__opencl_c_atomic_order_seq_cst") == cpu);
      CHECK(hasName(features, "__opencl_c_atomic_scope_all_devices") == cpu);
      CHECK(deviceValue<size_t>(device, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) == (cpu ? 8u : 1u));
      CHECK(nameVersions(device, CL_DEVICE_ILS_WITH_VERSION).empty());
      CHECK(deviceString(device, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED).size() == 14);

      const cl_device_info queries[] = {
          CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, CL_DEVICE_IL_VERSION, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
          CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
          CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
          CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, CL_DEVICE_MAX_ON_DEVICE_QUEUES, CL_DEVICE_MAX_ON_DEVICE_EVENTS,
          CL_DEVICE_MAX_PIPE_ARGS, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, CL_DEVICE_PIPE_MAX_PACKET_SIZE,
          CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
          CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, CL_DEVICE_IMAGE_PITCH_ALIGNMENT,
          CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES};
      for (cl_device_info query : queries) {
        INFO("device query 0x" << std::hex << query);
        size_t size = 0;
        CHECK(clGetDeviceInfo(device, query, 0, nullptr, &size) == CL_SUCCESS);
      }
    }
  }

  TEST_CASE("a kernel's feature macros are the device's CL_DEVICE_OPENCL_C_FEATURES", "[e2e][opencl30]") {
    for (cl_device_id device : {cpuDevice(), boardDevice()}) {
      INFO(deviceString(device, CL_DEVICE_NAME));
      Setup setup(device);
      cl_program program = setup.build(featureKernel(), "-cl-std=CL3.0");
      cl_int err = CL_SUCCESS;
      cl_kernel kernel = clCreateKernel(program, "features", &err);
      REQUIRE(err == CL_SUCCESS);
      std::vector<cl_int> seen(FeatureNames.size() + 2, -1);
      cl_mem out = clCreateBuffer(setup.context, CL_MEM_WRITE_ONLY, seen.size() * sizeof(cl_int), nullptr, &err);
      REQUIRE(err == CL_SUCCESS);
      REQUIRE(clSetKernelArg(kernel, 0, sizeof out, &out) == CL_SUCCESS);
      size_t one = 1;
      REQUIRE(clEnqueueNDRangeKernel(setup.queue, kernel, 1, nullptr, &one, &one, 0, nullptr, nullptr) == CL_SUCCESS);
      REQUIRE(clEnqueueReadBuffer(setup.queue, out, CL_TRUE, 0, seen.size() * sizeof(cl_int), seen.data(), 0,
                                  nullptr, nullptr) == CL_SUCCESS);
      CHECK(seen[0] == 300);
      CHECK(seen[1] == 300);
      auto reported = nameVersions(device, CL_DEVICE_OPENCL_C_FEATURES);
      for (size_t i = 0; i < FeatureNames.size(); ++i) {
        INFO(FeatureNames[i]);
        CHECK((seen[i + 2] == 1) == hasName(reported, FeatureNames[i]));
      }
      clReleaseMemObject(out);
      clReleaseKernel(kernel);
      clReleaseProgram(program);
    }
  }

  TEST_CASE("the generic address space in OpenCL C 3.0 on both devices; the board's pointers must be known",
            "[e2e][opencl30]") {
    const char *source = R"(
  int where(const int *p) {
    return (to_global(p) != 0) + 2 * (to_local(p) != 0) + 4 * (to_private(p) != 0) + 8 * (get_fence(p) == CLK_LOCAL_MEM_FENCE);
  }
  kernel void spaces(global int *out) {
    local int shared[16];
    int mine[2] = {1, 2};
    const size_t i = get_global_id(0);
    out[4 * i] = where(out + 4 * i);
    out[4 * i + 1] = where(shared + get_local_id(0));
    out[4 * i + 2] = where(mine + (i & 1));
    out[4 * i + 3] = where(i % 3 ? (int *)out : (i % 3 == 1 ? (int *)mine : (int *)shared));
  }
  )";
    // On the board, each arm of the last line's choice is known: to_global asks arm by arm.
    for (cl_device_id device : {cpuDevice(), boardDevice()}) {
    Setup cl(device);
    cl_program program = cl.build(source, "-cl-std=CL3.0");
    cl_kernel kernel = kernelNamed(program, "spaces");
    const size_t n = 48;
    std::vector<int> out(4 * n, -1);
    cl_mem buffer = ::buffer(cl, out, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
    setArg(kernel, 0, buffer);
    clReleaseEvent(launch(cl, kernel, {{n}, {16}}));
    out = readBack<int>(cl, buffer, out.size());
    for (size_t i = 0; i < n; ++i) {
      INFO("work-item " << i);
      // Global 1, __local 2 with its fence 8, private 4.
      CAPTURE(deviceString(device, CL_DEVICE_NAME));
    CHECK(out[4 * i] == 1);
      CHECK(out[4 * i + 1] == 10);
      CHECK(out[4 * i + 2] == 4);
      CHECK(out[4 * i + 3] == (i % 3 ? 1 : 10));
    }
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
  }

  Setup board(boardDevice());
  // A generic pointer on the board must come from a memory the hardware sees; a loop may leave that
  // to the data (OpenCL C 2.0 here; 3.0 alike).
  const std::string log = board.failedBuild(R"(
kernel void chosen(global const int *in, global int *out, int n) {
  local int shared[4];
  int *p = (int *)out;
  for (int k = 0; k < n; ++k)
    p = in[k] > 0 ? (int *)shared : p;
  out[0] = to_global(p) != 0;
}
)", "-cl-std=CL2.0");
  INFO(log);
  CHECK(log.find("program.cl:7:") != std::string::npos);
  CHECK(log.find("error: to_global of a generic pointer whose address space is not known at compile time") !=
        std::string::npos);
}

TEST_CASE("program-scope variables on the CPU: each program's own, kept from launch to launch; none on the board",
          "[e2e][opencl30]") {
  const char *source = R"(
global int counter = 5;
global float table[4] = {1, 2, 3, 4};
int next(void) {
  static global int calls;
  return calls++;
}
kernel void bump(global int *out) {
  const size_t i = get_global_id(0);
  out[i] = (int)table[i];
  table[i] += 10;
  atomic_inc(&counter);
}
kernel void read(global int *out) {
  out[0] = counter;
  out[1] = (int)table[0];
  out[2] = next();
}
)";
  CpuSetup cl;
  CHECK(deviceValue<size_t>(cl.device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) >= 64 * 1024);
  CHECK(deviceValue<size_t>(cl.device, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE) >= 64 * 1024);
  CHECK(hasName(nameVersions(cl.device, CL_DEVICE_OPENCL_C_FEATURES), "__opencl_c_program_scope_global_variables"));
  cl_program first = cl.build(source, "-cl-std=CL3.0");
  cl_program second = cl.build(source, "-cl-std=CL3.0"); // The same source: storage of its own.
  size_t total = 0;
  REQUIRE(clGetProgramBuildInfo(first, cl.device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof total, &total,
                                nullptr) == CL_SUCCESS);
  CHECK(total == 4 + 16 + 4);
  std::vector<int> out(4, -1);
  cl_mem buffer = ::buffer(cl, out, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  auto run = [&](cl_program program, const char *name, size_t items) {
    cl_kernel kernel = kernelNamed(program, name);
    setArg(kernel, 0, buffer);
    clReleaseEvent(launch(cl, kernel, {{items}, {items}}));
    clReleaseKernel(kernel);
    return readBack<int>(cl, buffer, out.size());
  };
  CHECK(run(first, "bump", 4) == std::vector<int>{1, 2, 3, 4});
  CHECK(run(first, "bump", 4) == std::vector<int>{11, 12, 13, 14});
  // counter 5 + 8, table[0] 1 + 20; next() counts its calls.
  CHECK(run(first, "read", 1) == std::vector<int>{13, 21, 0, 14});
  CHECK(run(first, "read", 1)[2] == 1);
  CHECK(run(second, "read", 1) == std::vector<int>{5, 1, 0, 14});
  clReleaseMemObject(buffer);
  clReleaseProgram(first);
  clReleaseProgram(second);

  Setup board(boardDevice());
  CHECK(deviceValue<size_t>(board.device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) == 0);
  CHECK_FALSE(hasName(nameVersions(board.device, CL_DEVICE_OPENCL_C_FEATURES),
                      "__opencl_c_program_scope_global_variables"));
  CHECK(board.failedBuild(source, "-cl-std=CL3.0").find("program.cl:2:") != std::string::npos);
}

TEST_CASE("non-uniform work-groups follow the program's OpenCL C version", "[e2e][opencl30]") {
  // A partial last group is OpenCL C 2.0's; 1.x, and -cl-uniform-work-group-size, keep 1.2's rule.
  const char *source = "#if __OPENCL_C_VERSION__ < 200\n"
                       "#define get_enqueued_local_size get_local_size\n"
                       "#endif\n"
                       "__kernel void sizes(__global int *out) {\n"
                       "  out[get_global_id(0)] = get_local_size(0) * 1000 + get_enqueued_local_size(0);\n"
                       "}\n";
  CpuSetup cl;
  const size_t global = 101, local = 25;
  cl_int err = CL_SUCCESS;
  cl_mem out = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, global * sizeof(cl_int), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  auto launchWith = [&](const char *options, const size_t *localSize) {
    cl_program program = cl.build(source, options);
    cl_kernel kernel = clCreateKernel(program, "sizes", &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clSetKernelArg(kernel, 0, sizeof out, &out) == CL_SUCCESS);
    cl_int status = clEnqueueNDRangeKernel(cl.queue, kernel, 1, nullptr, &global, localSize, 0, nullptr, nullptr);
    REQUIRE(clFinish(cl.queue) == CL_SUCCESS);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    return status;
  };
  CHECK(launchWith("", &local) == CL_INVALID_WORK_GROUP_SIZE);
  CHECK(launchWith("-cl-std=CL2.0 -cl-uniform-work-group-size", &local) == CL_INVALID_WORK_GROUP_SIZE);
  REQUIRE(launchWith("-cl-std=CL3.0", &local) == CL_SUCCESS);
  std::vector<cl_int> sizes(global);
  REQUIRE(clEnqueueReadBuffer(cl.queue, out, CL_TRUE, 0, global * sizeof(cl_int), sizes.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  for (size_t i = 0; i < global; ++i) {
    INFO("work-item " << i);
    CHECK(sizes[i] == (i < 100 ? 25025 : 1025));
  }
  // Without a local size the device may pick a partial last group; a prime global size then still
  // gets groups larger than one work-item.
  REQUIRE(launchWith("-cl-std=CL2.0", nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(cl.queue, out, CL_TRUE, 0, global * sizeof(cl_int), sizes.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(sizes[0] % 1000 > 1);
  clReleaseMemObject(out);
}

TEST_CASE("OpenCL 3.0 entry points: buffer properties, context destructor callbacks, cloned kernels",
          "[e2e][opencl30]") {
  CpuSetup setup;
  cl_int err = CL_SUCCESS;

  SECTION("clCreateBufferWithProperties takes an empty list, which CL_MEM_PROPERTIES returns") {
    const cl_mem_properties empty[] = {0};
    cl_mem listed = clCreateBufferWithProperties(setup.context, empty, CL_MEM_READ_WRITE, 64, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    size_t size = 1;
    cl_mem_properties back[2] = {7, 7};
    REQUIRE(clGetMemObjectInfo(listed, CL_MEM_PROPERTIES, sizeof back, back, &size) == CL_SUCCESS);
    CHECK(size == sizeof(cl_mem_properties));
    CHECK(back[0] == 0);
    cl_mem plain = clCreateBufferWithProperties(setup.context, nullptr, CL_MEM_READ_WRITE, 64, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clGetMemObjectInfo(plain, CL_MEM_PROPERTIES, 0, nullptr, &size) == CL_SUCCESS);
    CHECK(size == 0);

    const cl_mem_properties unknown[] = {0x4321, 1, 0};
    CHECK(clCreateBufferWithProperties(setup.context, unknown, CL_MEM_READ_WRITE, 64, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);
    CHECK(clCreateBufferWithProperties(setup.context, empty, CL_MEM_READ_WRITE, 0, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_BUFFER_SIZE);
    CHECK(clCreateBufferWithProperties(nullptr, empty, CL_MEM_READ_WRITE, 64, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_CONTEXT);
    clReleaseMemObject(listed);
    clReleaseMemObject(plain);
  }

  SECTION("context destructor callbacks run newest first, once nothing holds the context") {
    cl_device_id device = cpuDevice();
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    struct Record {
      cl_context context;
      std::vector<int> calls;
    } record{context, {}};
    auto first = [](cl_context c, void *data) {
      auto *r = static_cast<Record *>(data);
      r->calls.push_back(c == r->context ? 1 : -1);
    };
    auto second = [](cl_context c, void *data) {
      auto *r = static_cast<Record *>(data);
      r->calls.push_back(c == r->context ? 2 : -2);
    };
    REQUIRE(clSetContextDestructorCallback(context, first, &record) == CL_SUCCESS);
    REQUIRE(clSetContextDestructorCallback(context, second, &record) == CL_SUCCESS);
    CHECK(clSetContextDestructorCallback(context, nullptr, &record) == CL_INVALID_VALUE);
    CHECK(clSetContextDestructorCallback(nullptr, first, &record) == CL_INVALID_CONTEXT);
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 16, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clReleaseContext(context) == CL_SUCCESS);
    CHECK(record.calls.empty()); // The buffer still holds it.
    REQUIRE(clReleaseMemObject(buffer) == CL_SUCCESS);
    CHECK(record.calls == std::vector<int>{2, 1});
  }

  SECTION("a cloned kernel keeps the arguments it was cloned with") {
    cl_program program =
        setup.build("__kernel void fill(__global int *out, int v) { out[get_global_id(0)] = v; }\n");
    cl_kernel original = clCreateKernel(program, "fill", &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem a = clCreateBuffer(setup.context, CL_MEM_READ_WRITE, 4 * sizeof(cl_int), nullptr, &err);
    cl_mem b = clCreateBuffer(setup.context, CL_MEM_READ_WRITE, 4 * sizeof(cl_int), nullptr, &err);
    cl_int seven = 7, nine = 9;
    REQUIRE(clSetKernelArg(original, 0, sizeof a, &a) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(original, 1, sizeof seven, &seven) == CL_SUCCESS);
    cl_kernel copy = clCloneKernel(original, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(copy != original);
    REQUIRE(clSetKernelArg(original, 0, sizeof b, &b) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(original, 1, sizeof nine, &nine) == CL_SUCCESS);
    size_t four = 4;
    REQUIRE(clEnqueueNDRangeKernel(setup.queue, copy, 1, nullptr, &four, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(setup.queue, original, 1, nullptr, &four, nullptr, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    cl_int fromA[4], fromB[4];
    REQUIRE(clEnqueueReadBuffer(setup.queue, a, CL_TRUE, 0, sizeof fromA, fromA, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(setup.queue, b, CL_TRUE, 0, sizeof fromB, fromB, 0, nullptr, nullptr) == CL_SUCCESS);
    for (int i = 0; i < 4; ++i) {
      CHECK(fromA[i] == 7);
      CHECK(fromB[i] == 9);
    }
    char name[16] = {};
    REQUIRE(clGetKernelInfo(copy, CL_KERNEL_FUNCTION_NAME, sizeof name, name, nullptr) == CL_SUCCESS);
    CHECK(std::string(name) == "fill");
    CHECK(clCloneKernel(nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_KERNEL);

    size_t size = 1;
    REQUIRE(clGetProgramInfo(program, CL_PROGRAM_IL, 0, nullptr, &size) == CL_SUCCESS);
    CHECK(size == 0);
    cl_bool ctors = CL_TRUE;
    REQUIRE(clGetProgramInfo(program, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof ctors, &ctors, nullptr) ==
            CL_SUCCESS);
    CHECK(ctors == CL_FALSE);
    clReleaseKernel(copy);
    clReleaseKernel(original);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseProgram(program);
  }

  SECTION("host queues have no CL_QUEUE_SIZE and no default device queue") {
    cl_uint queueSize = 0;
    CHECK(clGetCommandQueueInfo(setup.queue, CL_QUEUE_SIZE, sizeof queueSize, &queueSize, nullptr) ==
          CL_INVALID_COMMAND_QUEUE);
    cl_command_queue deviceDefault = setup.queue;
    REQUIRE(clGetCommandQueueInfo(setup.queue, CL_QUEUE_DEVICE_DEFAULT, sizeof deviceDefault, &deviceDefault,
                                  nullptr) == CL_SUCCESS);
    CHECK(deviceDefault == nullptr);
  }
}

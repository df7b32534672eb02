// SPDX-License-Identifier: Apache-2.0
// printf on the CPU device through the ICD loader: every conversion and vector width against the
// host's printf, the output of many work-items (each one's lines in program order), a full buffer
// (-1, and no torn line), printf in a helper and a barrier kernel, the build errors of a %s that is
// not a literal and of a struct argument, and CL_DEVICE_PRINTF_BUFFER_SIZE on both devices.
#include "DifferentialSupport.h"

#include <cstdarg>

using namespace e2e;

namespace {

std::string formatted(const char *format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  return text;
}

/// Runs kernel `name` of `source` on the CPU device (see printedBy).
std::string runPrinting(const char *source, const char *name, const Range &range, std::vector<int> &results) {
  CpuSetup cl;
  cl_program program = cl.build(source);
  std::string printed = printedBy(cl, program, name, range, results);
  clReleaseProgram(program);
  return printed;
}

} // namespace

TEST_CASE("printf: every conversion, host's text", "[e2e][cpu][printf]") {
  const char *source = R"(
kernel void conversions(global int *out) {
  int i = get_global_id(0) + 3;
  float f = 1.0f / i;
  out[0] = printf("%d|%5i|%-4u|%x|%#X|%o|%c|%%|%ld|%lu|%hd|%hhu\n", -i, i, i, 255 * i, 4096 + i, 8 * i, 'a' + i,
                  -(long)i << 40, (ulong)i << 60, (short)(-i), (uchar)(250 + i));
  out[1] = printf("%f|%.3e|%g|%10.4f|%-9.2f|%a|%s|%5s|\n", f, f * 1e6f, f, -f, f, 2.0f, "text", "ab");
}
kernel void vectors(global int *out) {
  int i = get_global_id(0);
  out[0] = printf("%v2hhd|%v4hhu|%v8hhx|%v16hhd\n", (char2)(-1, 2), (uchar4)(250, 1, 2, 3),
                  (char8)(1, 2, 3, 4, 5, 6, 7, 8) * (char)(i + 1), (char16)(-8));
  out[1] = printf("%v2hd|%v4hu|%v8hx|%v16hd\n", (short2)(-300, 300), (ushort4)(65535, 0, 1, 2),
                  (short8)(16), (short16)(-2));
  out[2] = printf("%v2hld|%v3hld|%v4hlu|%v8hlx|%v16hld\n", (int2)(-5, 5), (int3)(1, 2, 3), (uint4)(4000000000u),
                  (int8)(255), (int16)(-9));
  out[3] = printf("%v2ld|%v3lu|%v4ld|%v8ld|%v16lx\n", (long2)(-1, 1), (ulong3)(1ul << 63), (long4)(7), (long8)(-8),
                  (ulong16)(0xabcdef012ul));
  out[4] = printf("%v2hlf|%.1v3hlf|%v4hlg|%.2v8hlf|%.0v16hlf\n", (float2)(0.5f, -0.5f), (float3)(1, 2, 3), (float4)(1e-5f),
                  (float8)(3.25f), (float16)(4));
}
)";
  std::vector<int> results;
  const int i = 3;
  const float f = 1.0f / i;
  std::string want =
      formatted("%d|%5i|%-4u|%x|%#X|%o|%c|%%|%ld|%lu|%hd|%hhu\n", -i, i, i, 255 * i, 4096 + i, 8 * i, 'a' + i,
                -(long)i << 40, (unsigned long)i << 60, (short)-i, (unsigned char)(250 + i)) +
      formatted("%f|%.3e|%g|%10.4f|%-9.2f|%a|%s|%5s|\n", double(f), double(f * 1e6f), double(f), double(-f),
                double(f), 2.0, "text", "ab");
  CHECK(runPrinting(source, "conversions", {{1}}, results) == want);
  CHECK(results[0] == 0);
  CHECK(results[1] == 0);

  auto repeat = [](const char *lane, int lanes) {
    std::string text = lane;
    for (int n = 1; n < lanes; ++n)
      text += std::string(",") + lane;
    return text;
  };
  want = "-1,2|250,1,2,3|1,2,3,4,5,6,7,8|" + repeat("-8", 16) + "\n" + //
         "-300,300|65535,0,1,2|" + repeat("10", 8) + "|" + repeat("-2", 16) + "\n" +
         "-5,5|1,2,3|" + repeat("4000000000", 4) + "|" + repeat("ff", 8) + "|" + repeat("-9", 16) + "\n" +
         "-1,1|" + repeat("9223372036854775808", 3) + "|" + repeat("7", 4) + "|" + repeat("-8", 8) + "|" +
         repeat("abcdef012", 16) + "\n" + //
         "0.500000,-0.500000|1.0,2.0,3.0|" + repeat("1e-05", 4) + "|" + repeat("3.25", 8) + "|" + repeat("4", 16) +
         "\n";
  CHECK(runPrinting(source, "vectors", {{1}}, results) == want);
  CHECK(std::count(results.begin(), results.begin() + 5, 0) == 5);
}

TEST_CASE("printf: many work-items, each in order", "[e2e][cpu][printf]") {
  const char *source = R"(
void say(int step, int item) { printf("item %d step %d\n", item, step); }
kernel void steps(global int *out) {
  local int seen[16];
  int i = get_global_id(0);
  say(0, i);
  seen[get_local_id(0)] = i;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int step = 1; step < 3; ++step)
    say(step, seen[15 - get_local_id(0)]);
  out[i] = printf("done\n");
}
)";
  std::vector<int> results;
  const std::string printed = runPrinting(source, "steps", {{256}, {16}}, results);
  CHECK(std::count(results.begin(), results.end(), 0) == 256);
  std::vector<std::string> want;
  for (int item = 0; item < 256; ++item) {
    const int mirrored = item / 16 * 16 + 15 - item % 16;
    want.push_back(formatted("item %d step 0", item));
    want.push_back(formatted("item %d step 1", mirrored));
    want.push_back(formatted("item %d step 2", mirrored));
    want.push_back("done");
  }
  std::sort(want.begin(), want.end());
  CHECK(sortedLines(printed) == want);
  // A work-item's own lines keep their order: item 5's step 0 comes before item 10's step 1
  // (printed by the work-item whose local id is 5, after the barrier).
  CHECK(printed.find("item 5 step 0\n") < printed.find("item 10 step 1\n"));
  CHECK(printed.find("item 10 step 1\n") < printed.find("item 10 step 2\n"));
}

TEST_CASE("printf: a full buffer returns -1", "[e2e][cpu][printf]") {
  // 40,000 records of 36 bytes are more than the 1 MiB buffer: the calls that do not fit return -1
  // and print nothing; every call that returned 0 printed its whole line.
  const char *source = R"(
kernel void flood(global int *out) {
  int i = get_global_id(0);
  out[i] = printf("%v4hld %v4hld\n", (int4)(i), (int4)(-i));
}
)";
  std::vector<int> results;
  const std::string printed = runPrinting(source, "flood", {{40000}}, results);
  const auto printedCalls = std::count(results.begin(), results.end(), 0);
  CHECK(printedCalls + std::count(results.begin(), results.end(), -1) == 40000);
  CHECK(printedCalls > 1000);
  CHECK(printedCalls < 40000);
  CHECK(std::count(printed.begin(), printed.end(), '\n') == printedCalls);
  for (const std::string &line : sortedLines(printed)) {
    int lanes[8];
    REQUIRE(std::sscanf(line.c_str(), "%d,%d,%d,%d %d,%d,%d,%d", &lanes[0], &lanes[1], &lanes[2], &lanes[3],
                        &lanes[4], &lanes[5], &lanes[6], &lanes[7]) == 8);
    CHECK(results[size_t(lanes[0])] == 0);
    CHECK(lanes[4] == -lanes[3]);
  }
}

TEST_CASE("printf: %s needs a string literal", "[e2e][cpu][printf]") {
  CpuSetup cl;
  const char *source = "kernel void k(constant char *name) {\n  printf(\"%s\\n\", name);\n}\n";
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(cl.context, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clBuildProgram(program, 1, &cl.device, "", nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
  const std::string log = buildLog(program, cl.device);
  CHECK_THAT(log, Catch::Contains(":2:3: error: the argument of printf's %s must be a string literal"));
  clReleaseProgram(program);
}

TEST_CASE("printf: a struct argument is a build error on both devices, not a crash", "[e2e][printf]") {
  // Clang 15 crashes compiling such a call; the build ran in the host application's process.
  for (cl_device_id device : {cpuDevice(), boardDevice()}) {
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const char *source = "typedef struct { int a; } S;\n"
                         "kernel void k(global int *out, S s) {\n  printf(\"%d\\n\", s);\n}\n";
    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
    CHECK_THAT(buildLog(program, device), Catch::Contains("program.cl:3:18: error: printf cannot print a struct ('S')"));
    clReleaseProgram(program);
    clReleaseContext(context);
  }
}

TEST_CASE("printf: buffer size on both devices", "[e2e][printf]") {
  for (cl_device_id device : {cpuDevice(), boardDevice()}) {
    size_t bytes = 0;
    REQUIRE(clGetDeviceInfo(device, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof bytes, &bytes, nullptr) == CL_SUCCESS);
    CHECK(bytes == 1024 * 1024); // The full profile's minimum
  }
}

// SPDX-License-Identifier: Apache-2.0
// Differential runs: a kernel on the board (from a binary loomc made) and on the CPU device (from the
// same source), through the ICD loader, with results compared bit for bit against a host reference.
#pragma once

#include "E2ESupport.h"

#include <cstring>
#include <functional>
#include <random>

namespace e2e {

/// A device buffer initialised from (or sized like) a host vector.
template <typename T> inline cl_mem buffer(Setup &cl, const std::vector<T> &host, cl_mem_flags flags) {
  cl_int err = CL_SUCCESS;
  void *init = (flags & CL_MEM_COPY_HOST_PTR) ? const_cast<T *>(host.data()) : nullptr;
  cl_mem mem = clCreateBuffer(cl.context, flags, host.size() * sizeof(T), init, &err);
  REQUIRE(err == CL_SUCCESS);
  return mem;
}

template <typename T> inline void setArg(cl_kernel kernel, cl_uint index, const T &value) {
  REQUIRE(clSetKernelArg(kernel, index, sizeof(T), &value) == CL_SUCCESS);
}

/// An NDRange: global sizes, and optionally local sizes and an offset of the same dimensions.
struct Range {
  std::vector<size_t> global, local = {}, offset = {};
};

/// Runs `kernel` over `range` and waits; returns the kernel's event.
inline cl_event launch(Setup &cl, cl_kernel kernel, const Range &range) {
  cl_event event = nullptr;
  REQUIRE(clEnqueueNDRangeKernel(cl.queue, kernel, cl_uint(range.global.size()),
                                 range.offset.empty() ? nullptr : range.offset.data(), range.global.data(),
                                 range.local.empty() ? nullptr : range.local.data(), 0, nullptr,
                                 &event) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &event) == CL_SUCCESS);
  cl_int status = CL_QUEUED;
  REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
  CHECK(status == CL_COMPLETE);
  return event;
}

template <typename T> inline std::vector<T> readBack(Setup &cl, cl_mem mem, size_t count) {
  std::vector<T> host(count);
  REQUIRE(clEnqueueReadBuffer(cl.queue, mem, CL_TRUE, 0, count * sizeof(T), host.data(), 0, nullptr, nullptr) ==
          CL_SUCCESS);
  return host;
}

/// The index of the first element where `got` and `want` differ bitwise, or -1.
template <typename T> inline long firstMismatch(const std::vector<T> &got, const std::vector<T> &want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0)
      return long(i);
  return -1;
}

/// `n` integers drawn uniformly from [lo, hi], the same for a seed on every run.
inline std::vector<int> randomInts(size_t n, int lo, int hi, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<int> v(n);
  for (int &x : v)
    x = lo + int(random() % unsigned(hi - lo + 1));
  return v;
}

/// A program on one device: the board's from the .loom binary, the CPU's from the same source.
struct Target {
  const char *name;
  std::function<cl_device_id()> device;
  bool fromBinary;
};
inline const Target Targets[] = {{"board", boardDevice, true}, {"cpu", cpuDevice, false}};

/// A differential program: its source and the .loom loomc made of it at build time.
struct Sources {
  const char *binary, *source;
  const char *options = ""; ///< Build options, the same for loomc and clBuildProgram.
};

inline cl_program programFor(Setup &cl, const Target &target, const Sources &program) {
  return target.fromBinary ? cl.load(readFile(program.binary)) : cl.build(readFile(program.source), program.options);
}

inline cl_kernel kernelNamed(cl_program program, const char *name) {
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &err);
  REQUIRE(err == CL_SUCCESS);
  return kernel;
}

/// Runs kernel `name` of a differential program, `(in a, in b, out, scalar)`, over `range`
/// (default: a.size() work-items) on `target`; returns `out`, which starts as all bits set, so what
/// a work-item did not write shows.
template <typename Out, typename A, typename B, typename Scalar>
inline std::vector<Out> runTwoInputs(const Sources &sources, const Target &target, const char *name,
                              const std::vector<A> &a, const std::vector<B> &b, Scalar scalar, Range range = {}) {
  Setup cl(target.device());
  cl_program program = programFor(cl, target, sources);
  cl_kernel kernel = kernelNamed(program, name);
  cl_mem da = buffer(cl, a, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem db = buffer(cl, b, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  std::vector<Out> unwritten(a.size());
  std::memset(unwritten.data(), 0xff, unwritten.size() * sizeof(Out));
  cl_mem dout = buffer(cl, unwritten, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  setArg(kernel, 0, da);
  setArg(kernel, 1, db);
  setArg(kernel, 2, dout);
  setArg(kernel, 3, scalar);
  if (range.global.empty())
    range.global = {a.size()};
  clReleaseEvent(launch(cl, kernel, range));
  auto out = readBack<Out>(cl, dout, a.size());
  for (cl_mem mem : {da, db, dout})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  return out;
}

/// Runs kernel `name` of `program`, whose one argument is an int buffer of one element per
/// work-item (at least 8, all 12345 at first), over `range`; returns what the kernel printed, and
/// the buffer in `results`.
inline std::string printedBy(Setup &cl, cl_program program, const char *name, const Range &range,
                             std::vector<int> &results) {
  cl_kernel kernel = kernelNamed(program, name);
  size_t items = 1;
  for (size_t size : range.global)
    items *= size;
  results.assign(std::max<size_t>(items, 8), 12345);
  cl_mem out = buffer(cl, results, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR);
  setArg(kernel, 0, out);
  std::string printed = capturedStdout([&] { clReleaseEvent(launch(cl, kernel, range)); });
  results = readBack<int>(cl, out, results.size());
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  return printed;
}

} // namespace e2e

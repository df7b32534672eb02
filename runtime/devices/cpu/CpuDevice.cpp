//===- CpuDevice.cpp - The CPU device: host memory, JIT builds, threaded launches ===//
// SPDX-License-Identifier: Apache-2.0
//
// Memory is plain aligned host memory (a buffer's device address is its host address). A launch hands
// work-group indices out through an atomic counter to the pool's threads and the calling queue
// thread; each thread has its own argument array and __local scratch buffer. Launches from different
// queues run at the same time; one with pipe arguments is watched for deadlock (PipeOperations.h).
//===----------------------------------------------------------------------===//
#include "devices/cpu/CpuDevice.h"
#include "devices/cpu/CpuProgram.h"
#include "devices/cpu/PipeOperations.h"
#include "devices/cpu/StreamingStores.h"
#include "devices/cpu/WorkItemLoops.h"

#include "loom/frontend/Binary.h"
#include "loom/frontend/OpenCLCompiler.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <list>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace loom::runtime {
namespace {

using cpu::CpuProgram;

/// The file name diagnostics show for program source (clCreateProgramWithSource has no file).
constexpr const char *ProgramFileName = "program.cl";
constexpr size_t MemoryAlignment = 128; ///< CL_DEVICE_MEM_BASE_ADDR_ALIGN is 1024 bits.
constexpr size_t HugePageBytes = size_t(2) << 20;
/// The largest alignment an OpenCL C type has (a long16's): the base of the per-work-item context,
/// whose arrays are aligned to their values' alignment, and of the __local scratch, whose variables
/// and __local arguments are too.
constexpr size_t LargestTypeAlignment = 128;

/// The calling thread's stack, [start, end): where to_private finds a kernel's private variables
/// (AddressSpaceQueries.h). Asked once per thread (the pool's threads and the queues' stay).
std::pair<uint64_t, uint64_t> threadStack() {
  thread_local const std::pair<uint64_t, uint64_t> bounds = [] {
    pthread_attr_t attributes;
    void *start = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
      pthread_attr_getstack(&attributes, &start, &size);
      pthread_attr_destroy(&attributes);
    }
    const auto first = reinterpret_cast<uintptr_t>(start);
    return std::pair<uint64_t, uint64_t>{first, first + size};
  }();
  return bounds;
}

llvm::Error deviceError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// "model name" from /proc/cpuinfo, else LLVM's name for the host CPU.
std::string hostCpuName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    llvm::StringRef text(line);
    if (text.startswith("model name")) {
      auto value = text.split(':').second.trim();
      if (!value.empty())
        return value.str();
    }
  }
  return llvm::sys::getHostCPUName().str();
}

uint32_t hostClockMHz() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    llvm::StringRef text(line);
    if (text.startswith("cpu MHz")) {
      double mhz = 0;
      if (!text.split(':').second.trim().getAsDouble(mhz))
        return static_cast<uint32_t>(mhz);
    }
  }
  return 0;
}

struct FreeDeleter {
  void operator()(void *p) const { std::free(p); }
};

class CpuDevice final : public Device {
public:
  CpuDevice() : pool(llvm::hardware_concurrency()) {
    deviceInfo.kind = DeviceKind::Cpu;
    deviceInfo.name = "Loom CPU (" + hostCpuName() + ")";
    deviceInfo.opencl = frontend::openclSupport(frontend::Target::Host);
    deviceInfo.subGroupSize = cpu::SubGroupSize;
    deviceInfo.independentSubGroups = true; // a work-item waiting in a loop yields (SpinLoopYields.h)
    deviceInfo.maxGlobalVariableBytes = cpu::MaxGlobalVariableBytes;
    deviceInfo.maxPipeArgs = cpu::MaxPipeArgs;
    deviceInfo.maxPipePacketBytes = 64 << 10;
    deviceInfo.maxPipeReservations = 64;
    deviceInfo.preferredGroupMultiple = cpu::SubGroupSize; // the vector width the work-item loops fill
    deviceInfo.computeUnits = std::max(1u, llvm::hardware_concurrency().compute_thread_count());
    deviceInfo.clockMHz = hostClockMHz();
    deviceInfo.maxWorkGroupSize = 4096;
    deviceInfo.maxWorkItemSizes = {4096, 4096, 4096};
    uint64_t physical = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
    deviceInfo.globalMemBytes = physical;
    deviceInfo.maxAllocBytes = std::min(physical, std::max(physical / 4, uint64_t(128) << 20));
    deviceInfo.localMemBytes = 1 << 20; // Per-thread scratch, so generous.
    deviceInfo.denormals = true;
    deviceInfo.compilerAvailable = true;
    deviceInfo.profilingResolutionNs = 1;
  }

  const DeviceInfo &info() const override { return deviceInfo; }

  llvm::Expected<Allocation> allocate(size_t bytes) override {
    // Large buffers sit on 2 MiB boundaries and ask for transparent huge pages: kernels stream
    // through them, and 4 KiB pages would cost a TLB miss every 4 KiB.
    const size_t alignment = bytes >= HugePageBytes ? HugePageBytes : MemoryAlignment;
    size_t rounded = llvm::alignTo(std::max<size_t>(bytes, 1), alignment);
    void *memory = std::aligned_alloc(alignment, rounded);
    if (!memory)
      return deviceError("out of host memory allocating " + llvm::Twine(bytes) + " bytes");
    if (alignment == HugePageBytes)
      madvise(memory, rounded, MADV_HUGEPAGE); // Advice only: without THP, plain pages serve.
    return Allocation{memory, reinterpret_cast<uintptr_t>(memory), bytes};
  }

  void release(const Allocation &allocation) override { std::free(allocation.host); }

  llvm::Expected<std::unique_ptr<DeviceProgram>>
  buildFromSource(llvm::StringRef source, llvm::StringRef options, std::string &log) override {
    // Applications (and test suites) build the same source again and again: the compiled code is
    // immutable, so a rebuild shares it instead of running Clang, O3 and the JIT once more. Not a
    // program with program-scope variables: each program object has its own.
    const std::string key = options.str() + '\0' + source.str();
    {
      std::lock_guard<std::mutex> lock(cacheMutex);
      for (auto it = recentBuilds.begin(); it != recentBuilds.end(); ++it)
        if (it->key == key) {
          recentBuilds.splice(recentBuilds.begin(), recentBuilds, it);
          log = it->log;
          return std::unique_ptr<DeviceProgram>(it->program->share());
        }
    }
    auto context = std::make_unique<llvm::LLVMContext>();
    frontend::SourceInput input{source.str(), ProgramFileName, options.str()};
    auto compiled = frontend::compileOpenCL(*context, input, frontend::Target::Host);
    if (!compiled) {
      log = llvm::toString(compiled.takeError());
      return deviceError(log);
    }
    log = compiled->log;
    auto program = CpuProgram::compile(std::move(context), std::move(compiled->module), log);
    if (!program)
      return failed(program.takeError(), log);
    if ((*program)->globalVariableBytes())
      return std::unique_ptr<DeviceProgram>(std::move(*program));
    std::lock_guard<std::mutex> lock(cacheMutex);
    recentBuilds.push_front({key, log, (*program)->share()});
    if (recentBuilds.size() > RecentBuildLimit)
      recentBuilds.pop_back();
    return std::unique_ptr<DeviceProgram>(std::move(*program));
  }

  llvm::Expected<frontend::ObjectCode> compileObject(const frontend::SourceInput &source,
                                                     std::string &log) override {
    llvm::LLVMContext context;
    auto compiled = frontend::compileOpenCL(context, source, frontend::Target::Host);
    if (!compiled) {
      log = llvm::toString(compiled.takeError());
      return deviceError(log);
    }
    log = compiled->log;
    frontend::ObjectCode object;
    object.options = source.options;
    object.log = log;
    object.hostBitcode = frontend::bitcodeOf(*compiled->module);
    return object;
  }

  llvm::Expected<std::unique_ptr<DeviceProgram>> link(llvm::ArrayRef<frontend::ObjectCode> objects,
                                                      llvm::StringRef, std::string &log) override {
    std::vector<llvm::StringRef> units;
    for (const frontend::ObjectCode &object : objects)
      units.push_back(object.hostBitcode);
    auto context = std::make_unique<llvm::LLVMContext>();
    auto module = frontend::linkUnits(*context, units, frontend::LinkResult::Executable);
    if (!module) {
      log = llvm::toString(module.takeError());
      return deviceError(log);
    }
    log.clear();
    auto program = CpuProgram::compile(std::move(context), std::move(*module), log);
    if (!program)
      return failed(program.takeError(), log);
    return std::unique_ptr<DeviceProgram>(std::move(*program));
  }

  // Every object has host code (a board's too: its .loom.cpu), which is all this device links.
  llvm::Error checkObject(const frontend::ObjectCode &) const override { return llvm::Error::success(); }

  llvm::Expected<std::unique_ptr<DeviceProgram>> loadBinary(llvm::StringRef bytes,
                                                            std::string &log) override {
    auto binary = frontend::readBinary(bytes);
    if (!binary) {
      log = "invalid program binary: " + llvm::toString(binary.takeError());
      return deviceError(log);
    }
    if (binary->cpuBitcode.empty()) {
      log = "binary has no CPU code (it was compiled from SPIR-V or for the board only): build "
            "the program from OpenCL C source for the CPU device";
      return deviceError(log);
    }
    auto context = std::make_unique<llvm::LLVMContext>();
    context->setOpaquePointers(false); // The frontend writes typed-pointer bitcode.
    auto module = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(binary->cpuBitcode, "program.loom(.loom.cpu)"), *context);
    if (!module) {
      log = "binary's CPU code is not valid LLVM 15 bitcode: " + llvm::toString(module.takeError());
      return deviceError(log);
    }
    log = binary->log;
    auto program = CpuProgram::compile(std::move(context), std::move(*module), log, bytes.str());
    if (!program)
      return failed(program.takeError(), log);
    return std::unique_ptr<DeviceProgram>(std::move(*program));
  }

  llvm::Expected<LaunchResult> launch(DeviceProgram &deviceProgram, unsigned kernelIndex,
                                      llvm::ArrayRef<ArgValue> args, const NDRange &range) override {
    return run(static_cast<CpuProgram &>(deviceProgram), kernelIndex, args, range, nullptr);
  }

  llvm::Error startAutorun(DeviceProgram &deviceProgram, unsigned kernelIndex, std::vector<ArgValue> args,
                           const NDRange &range, std::function<void(const std::string &)> failed) override {
    auto &program = static_cast<CpuProgram &>(deviceProgram);
    program.autorun.start(
        [this, &program, kernelIndex, args = std::move(args), range]() -> llvm::Error {
          return run(program, kernelIndex, args, range, &program.autorun.stopping()).takeError();
        },
        std::move(failed));
    return llvm::Error::success();
  }

private:
  /// One launch; an autorun kernel's run (`stop` set) ends early, with success, once `stop` is.
  llvm::Expected<LaunchResult> run(CpuProgram &program, unsigned kernelIndex, llvm::ArrayRef<ArgValue> args,
                                   const NDRange &range, const std::atomic<bool> *stop);

  /// Appends a compile error to the log and returns it.
  static llvm::Error failed(llvm::Error error, std::string &log) {
    std::string message = llvm::toString(std::move(error));
    if (!log.empty() && log.back() != '\n')
      log += '\n';
    log += message;
    if (log.back() != '\n')
      log += '\n';
    return deviceError(message);
  }

  /// A successful build from source, kept for rebuilds of the same source and options.
  struct RecentBuild {
    std::string key; ///< Options, NUL, source.
    std::string log;
    std::unique_ptr<CpuProgram> program;
  };
  static constexpr size_t RecentBuildLimit = 16;

  DeviceInfo deviceInfo;
  llvm::ThreadPool pool;
  cpu::PipeWatch pipeWatch;
  std::mutex cacheMutex;
  std::list<RecentBuild> recentBuilds; ///< Most recently used first.
};

llvm::Expected<LaunchResult> CpuDevice::run(CpuProgram &program, unsigned kernelIndex, llvm::ArrayRef<ArgValue> args,
                                            const NDRange &range, const std::atomic<bool> *stop) {
  if (kernelIndex >= program.kernels().size())
    return deviceError("kernel index " + llvm::Twine(kernelIndex) + " out of range");
  const frontend::KernelInfo &kernel = program.kernels()[kernelIndex];
  if (args.size() != kernel.args.size())
    return deviceError(llvm::formatv("kernel '{0}' takes {1} arguments, {2} given", kernel.name,
                                     kernel.args.size(), args.size()));
  std::vector<cpu::LaunchBuffer> buffers(args.size());
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].kind == ArgValue::Kind::Buffer)
      buffers[i] = {args[i].buffer.host, args[i].buffer.size, program.elementBytes(kernelIndex)[i]};
  static const uint64_t cacheBytes = cpu::lastLevelCacheBytes();
  const bool streaming = cpu::isStreamingLaunch(kernel, buffers, range, cacheBytes);
  auto compiledEntry =
      program.entry(kernelIndex, streaming ? CpuProgram::Variant::Streaming : CpuProgram::Variant::Cached);
  if (!compiledEntry)
    return compiledEntry.takeError();
  const CpuProgram::Entry &entry = *compiledEntry;

  uint64_t info[cpu::WorkGroupInfo::Count] = {};
  uint64_t groups[3];
  uint64_t totalGroups = 1;
  for (unsigned d = 0; d < 3; ++d) {
    uint64_t global = d < range.dims ? range.global[d] : 1;
    uint64_t local = d < range.dims ? range.local[d] : 1;
    if (local == 0)
      return deviceError(llvm::formatv("work-group size 0 in dimension {0}", d));
    groups[d] = llvm::divideCeil(global, local); // the last may be partial (OpenCL 2.0)
    totalGroups *= groups[d];
    info[cpu::WorkGroupInfo::GlobalSize + d] = global;
    info[cpu::WorkGroupInfo::EnqueuedLocalSize + d] = local;
    info[cpu::WorkGroupInfo::GlobalOffset + d] = d < range.dims ? range.offset[d] : 0;
    info[cpu::WorkGroupInfo::NumGroups + d] = groups[d];
  }
  info[cpu::WorkGroupInfo::WorkDim] = range.dims;
  // A kernel that prints appends records to a buffer of its launch (lowering/Printf.h).
  std::vector<uint8_t> printfBuffer;
  if (entry.prints) {
    printfBuffer.assign(lowering::PrintfBufferBytes, 0);
    const uint32_t firstRecord = lowering::PrintfHeaderBytes;
    std::memcpy(printfBuffer.data(), &firstRecord, sizeof(firstRecord));
    info[cpu::WorkGroupInfo::PrintfBuffer] = reinterpret_cast<uintptr_t>(printfBuffer.data());
  }

  // Scratch layout: the kernel's __local variables, then each __local argument.
  uint64_t scratchBytes = llvm::alignTo(entry.staticLocalBytes, LargestTypeAlignment);
  std::vector<uint64_t> localOffsets(args.size(), 0);
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].kind == ArgValue::Kind::Local) {
      localOffsets[i] = scratchBytes;
      scratchBytes += llvm::alignTo(std::max<size_t>(args[i].localBytes, 1), LargestTypeAlignment);
    }
  info[cpu::WorkGroupInfo::LocalBytes] = scratchBytes;
  if (scratchBytes > deviceInfo.localMemBytes)
    return deviceError(llvm::formatv("kernel '{0}' needs {1} bytes of local memory; the CPU device "
                                     "has {2}", kernel.name, scratchBytes, deviceInfo.localMemBytes));

  // Argument slots shared by all threads: scalars point at their bytes, buffers at a pointer.
  std::vector<void *> sharedArgs(args.size(), nullptr);
  std::vector<void *> bufferPointers(args.size(), nullptr);
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind == ArgValue::Kind::Scalar) {
      sharedArgs[i] = const_cast<uint8_t *>(args[i].bytes.data());
    } else if (args[i].kind == ArgValue::Kind::Buffer) {
      bufferPointers[i] = args[i].buffer.host;
      sharedArgs[i] = &bufferPointers[i];
    }
  }

  // Threads claim runs of consecutive work-groups: a claim per group would make the shared counter's
  // cache line bounce between cores on every small group. A run covers some 256K work-items (a
  // streaming kernel's threads each read long runs of memory: vector_add took 44 GB/s with runs of
  // 16K, 50 with these), and there are still at least 8 runs per thread to even out the load.
  const uint64_t threads = std::min<uint64_t>(pool.getThreadCount(), totalGroups);
  const uint64_t groupItems = info[cpu::WorkGroupInfo::EnqueuedLocalSize] *
                              info[cpu::WorkGroupInfo::EnqueuedLocalSize + 1] *
                              info[cpu::WorkGroupInfo::EnqueuedLocalSize + 2];
  const uint64_t claim = std::clamp<uint64_t>(llvm::divideCeil(262144, groupItems), 1,
                                              std::max<uint64_t>(1, totalGroups / (8 * threads)));
  std::atomic<uint64_t> nextGroup{0};
  // Each thread's __local scratch and the context its group's work-items keep across barriers
  // (private memory: no limit but the host's), allocated before any thread starts.
  struct ThreadMemory {
    std::unique_ptr<uint8_t, FreeDeleter> scratch, context;
  };
  const uint64_t contextBytes = entry.contextBytesPerItem * groupItems;
  std::vector<ThreadMemory> memory(threads);
  for (ThreadMemory &own : memory) {
    own.scratch.reset(static_cast<uint8_t *>(
        std::aligned_alloc(LargestTypeAlignment, llvm::alignTo(std::max<uint64_t>(scratchBytes, 1), LargestTypeAlignment))));
    if (contextBytes)
      own.context.reset(static_cast<uint8_t *>(std::aligned_alloc(LargestTypeAlignment, llvm::alignTo(contextBytes, LargestTypeAlignment))));
    if (!own.scratch || (contextBytes && !own.context))
      return deviceError(llvm::formatv("out of host memory for kernel '{0}': {1} bytes of private "
                                       "memory kept across barriers per work-group", kernel.name, contextBytes));
  }
  // A kernel with pipes is watched for deadlock (PipeOperations.h). Other kernels run alongside it:
  // each launch has at least its queue's thread.
  std::optional<cpu::WatchedLaunch> watched;
  {
    std::vector<cpu::WatchedLaunch::PipeArgument> pipes;
    for (size_t i = 0; i < args.size(); ++i)
      if (kernel.args[i].isPipe())
        pipes.push_back({kernel.args[i].name, args[i].buffer.host});
    if (!pipes.empty())
      watched.emplace(pipeWatch, kernel.name, std::move(pipes), program.pipeCallSites(), stop);
  }
  std::atomic<uint64_t> nextThread{0};
  auto work = [&] {
    ThreadMemory &own = memory[nextThread.fetch_add(1, std::memory_order_relaxed)];
    uint8_t *scratch = own.scratch.get();
    std::vector<void *> ownArgs = sharedArgs;
    std::vector<void *> localPointers(args.size(), nullptr);
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].kind == ArgValue::Kind::Local) {
        localPointers[i] = scratch + localOffsets[i];
        ownArgs[i] = &localPointers[i];
      }
    uint64_t ownInfo[cpu::WorkGroupInfo::Count];
    std::copy(std::begin(info), std::end(info), std::begin(ownInfo));
    const auto [stackStart, stackEnd] = threadStack();
    ownInfo[cpu::WorkGroupInfo::StackBounds] = stackStart;
    ownInfo[cpu::WorkGroupInfo::StackBounds + 1] = stackEnd;
    ownInfo[cpu::WorkGroupInfo::ContextBounds] = reinterpret_cast<uintptr_t>(own.context.get());
    ownInfo[cpu::WorkGroupInfo::ContextBounds + 1] = reinterpret_cast<uintptr_t>(own.context.get()) + contextBytes;
    cpu::WatchedLaunch::Thread watchedThread;
    if (watched)
      watched->join(watchedThread);
    bool ended = false;
    while (!ended) {
      uint64_t first = nextGroup.fetch_add(claim, std::memory_order_relaxed);
      if (first >= totalGroups)
        break;
      for (uint64_t group = first, last = std::min(first + claim, totalGroups); group < last && !ended; ++group) {
        ownInfo[cpu::WorkGroupInfo::GroupId] = group % groups[0];
        ownInfo[cpu::WorkGroupInfo::GroupId + 1] = (group / groups[0]) % groups[1];
        ownInfo[cpu::WorkGroupInfo::GroupId + 2] = group / (groups[0] * groups[1]);
        auto run = [&] { entry.function(ownArgs.data(), ownInfo, scratch, own.context.get()); };
        if (!watched)
          run();
        else if (!cpu::runWatched(watchedThread, run))
          ended = true; // Deadlocked: the other threads end too, and no group starts any more.
      }
    }
    if (ended)
      nextGroup.store(totalGroups, std::memory_order_relaxed);
    // The streaming variant's non-temporal stores are weakly ordered: each thread fences them once,
    // after its last group, before the launch completes (on x86-64 an MFENCE, which drains them). A
    // fence per work-group made groups of 64 work-items wait on every line they wrote.
    if (streaming)
      std::atomic_thread_fence(std::memory_order_seq_cst);
    if (watched)
      watched->leave(watchedThread);
  };

  auto start = std::chrono::steady_clock::now();
  uint64_t helpers = threads - 1;
  std::vector<std::shared_future<void>> running;
  for (uint64_t i = 0; i < helpers; ++i)
    running.push_back(pool.async(work));
  work(); // The queue's thread takes part instead of only waiting.
  for (auto &future : running)
    future.wait();
  auto end = std::chrono::steady_clock::now();

  if (watched)
    if (std::string deadlock = watched->failure(); !deadlock.empty())
      return deviceError(deadlock);

  LaunchResult result;
  result.deviceNs = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  if (entry.prints)
    result.printed = lowering::formatPrintfRecords(program.printfCalls(), printfBuffer, result.printfBufferFull);
  return result;
}

} // namespace

std::unique_ptr<Device> createCpuDevice() { return std::make_unique<CpuDevice>(); }

} // namespace loom::runtime

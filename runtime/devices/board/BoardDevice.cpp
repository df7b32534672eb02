//===- BoardDevice.cpp - Device memory, binaries and launches on the board -===//
// SPDX-License-Identifier: Apache-2.0
//
// Device memory: one memfd of the board's memory size (sparse), mapped MAP_SHARED|MAP_NORESERVE here
// and in the board processes; a first-fit allocator hands out 4 KiB-aligned ranges, never offset 0
// (so a NULL buffer stays distinguishable), and a device address is the offset into the memfd.
// Released ranges are punched out of the memfd so they stop costing memory.
// Programs: the .loom binary is read and checked against this board, and its model runs in a
// loom-board process (sim::BoardProcess) that a launch talks to with RunKernel. Source is built into
// such a binary by the same flow as loomc (compileOffline), in-process, through the ProgramCache.
//===----------------------------------------------------------------------===//
#include "devices/board/BoardDevice.h"
#include "core/PipeStorage.h"
#include "devices/AutorunKernels.h"
#include "devices/ProgramCache.h"

#include "OfflineCompiler.h"

#include "loom/board/Board.h"
#include "loom/frontend/Binary.h"
#include "loom/hls/HardwareKernel.h"
#include "loom/lowering/Printf.h"
#include "loom/sim/BoardProcess.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace loom::runtime {
namespace {

constexpr uint64_t PageBytes = 4096;

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// The memfd, its host mapping and a first-fit allocator over it.
class DeviceMemory {
public:
  ~DeviceMemory() {
    if (base_)
      munmap(base_, size_);
    if (fd_ >= 0)
      ::close(fd_);
  }

  llvm::Error init(uint64_t size) {
    if (size <= PageBytes)
      return error(llvm::formatv("the board's global memory ({0} bytes) is too small", size));
    fd_ = memfd_create("loom-device-memory", MFD_CLOEXEC);
    if (fd_ < 0)
      return error(llvm::formatv("cannot create the device memory: memfd_create: {0}",
                                 std::strerror(errno)));
    if (ftruncate(fd_, static_cast<off_t>(size)) != 0)
      return error(llvm::formatv("cannot size the device memory to {0} bytes: {1}", size,
                                 std::strerror(errno)));
    void *mapping =
        mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd_, 0);
    if (mapping == MAP_FAILED)
      return error(llvm::formatv("cannot map the device memory ({0} bytes): {1}", size,
                                 std::strerror(errno)));
    base_ = static_cast<uint8_t *>(mapping);
    size_ = size;
    free_[PageBytes] = size - PageBytes;
    return llvm::Error::success();
  }

  llvm::Expected<Allocation> allocate(size_t bytes) {
    if (bytes == 0)
      return error("cannot allocate a buffer of 0 bytes");
    uint64_t need = (static_cast<uint64_t>(bytes) + PageBytes - 1) / PageBytes * PageBytes;
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t largest = 0;
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      largest = std::max(largest, it->second);
      if (it->second < need)
        continue;
      uint64_t offset = it->first, length = it->second;
      free_.erase(it);
      if (length > need)
        free_[offset + need] = length - need;
      used_[offset] = need;
      Allocation allocation;
      allocation.host = base_ + offset;
      allocation.deviceAddress = offset;
      allocation.size = bytes;
      return allocation;
    }
    return error(llvm::formatv("out of board memory: cannot allocate {0} bytes (largest free block "
                               "{1} bytes of {2})",
                               bytes, largest, size_));
  }

  void release(const Allocation &allocation) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto used = used_.find(allocation.deviceAddress);
    if (used == used_.end())
      return; // not ours, or already released: nothing to do
    uint64_t offset = used->first, length = used->second;
    used_.erase(used);
    // Give the pages back to the system; a later allocation of this range reads zeros.
    madvise(base_ + offset, length, MADV_REMOVE);
    auto next = free_.lower_bound(offset);
    if (next != free_.end() && offset + length == next->first) {
      length += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == offset) {
        prev->second += length;
        return;
      }
    }
    free_[offset] = length;
  }

  int fd() const { return fd_; }
  uint64_t size() const { return size_; }

private:
  std::mutex mutex_;
  int fd_ = -1;
  uint8_t *base_ = nullptr;
  uint64_t size_ = 0;
  std::map<uint64_t, uint64_t> free_; ///< offset -> length, coalesced
  std::map<uint64_t, uint64_t> used_; ///< offset -> length (page-rounded)
};

class BoardProgram : public DeviceProgram {
public:
  BoardProgram(std::string bytes, std::vector<frontend::KernelInfo> kernels,
               std::vector<hls::HardwareKernel> hardware, std::vector<lowering::PrintfCall> printfCalls,
               std::unique_ptr<sim::BoardProcess> process)
      : bytes_(std::move(bytes)), kernels_(std::move(kernels)), hardware_(std::move(hardware)),
        printfCalls_(std::move(printfCalls)), process_(std::move(process)) {
    // A kernel with barriers keeps per-work-item storage for groups of up to maxGroupItems: that
    // bounds its work-groups as max_work_group_size would (CL_KERNEL_WORK_GROUP_SIZE, launches).
    for (size_t k = 0; k < kernels_.size() && k < hardware_.size(); ++k)
      if (hardware_[k].workGroupLoops) {
        uint64_t &limit = kernels_[k].maxWorkGroupSize;
        limit = limit ? std::min<uint64_t>(limit, hardware_[k].maxGroupItems) : hardware_[k].maxGroupItems;
      }
  }
  // The autorun kernels' runs wait for their process's answers: shutting it down ends them. A
  // program without kernels has no process.
  ~BoardProgram() override {
    if (!process_)
      return;
    autorun_.stop([this] { llvm::consumeError(process_->shutdown()); });
    llvm::consumeError(process_->shutdown());
  }

  const std::vector<frontend::KernelInfo> &kernels() const override { return kernels_; }
  std::string binary() const override { return bytes_; }
  llvm::Error checkLocalArgument(unsigned kernelIndex, unsigned argIndex, uint64_t bytes) const override {
    const auto &sizes = hardware_[kernelIndex].localArgBytes;
    if (auto it = sizes.find(argIndex); it != sizes.end() && bytes > it->second)
      return error(llvm::formatv("kernel '{0}' argument {1}: {2} bytes of __local memory asked, but its on-chip "
                                 "memory holds {3}: declare the argument with "
                                 "__attribute__((local_mem_size({4}))) or more",
                                 kernels_[kernelIndex].name, argIndex, bytes, it->second,
                                 llvm::PowerOf2Ceil(bytes)));
    return llvm::Error::success();
  }
  const std::vector<hls::HardwareKernel> &hardware() const { return hardware_; }
  const std::vector<lowering::PrintfCall> &printfCalls() const { return printfCalls_; }
  sim::BoardProcess &process() { return *process_; }
  AutorunKernels &autorun() { return autorun_; }

private:
  std::string bytes_;
  std::vector<frontend::KernelInfo> kernels_;
  std::vector<hls::HardwareKernel> hardware_;
  std::vector<lowering::PrintfCall> printfCalls_;
  std::unique_ptr<sim::BoardProcess> process_;
  AutorunKernels autorun_;
};

/// loom-board lives in libexec next to the library holding this code (libLoomOpenCL.so installed, or
/// a test executable in the build tree's bin/).
std::string findBoardExecutable() {
  if (auto env = llvm::sys::Process::GetEnv("LOOM_BOARD_EXECUTABLE"))
    return *env;
  Dl_info info;
  std::string self;
  if (dladdr(reinterpret_cast<void *>(&findBoardExecutable), &info) && info.dli_fname)
    self = info.dli_fname;
  llvm::SmallString<256> real;
  if (self.empty() || llvm::sys::fs::real_path(self, real))
    if (llvm::sys::fs::real_path("/proc/self/exe", real))
      return "loom-board";
  llvm::StringRef dir = llvm::sys::path::parent_path(real);
  std::vector<std::string> candidates;
  for (llvm::StringRef relative : {llvm::StringRef(LOOM_BOARD_EXECUTABLE_FROM_LIBDIR),
                                   llvm::StringRef("../libexec/loom/loom-board")}) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, relative);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    candidates.push_back(path.str().str());
  }
  for (const auto &c : candidates)
    if (llvm::sys::fs::can_execute(c))
      return c;
  return candidates.front();
}

class BoardDevice : public Device {
public:
  BoardDevice() {
    std::string name = "default";
    if (auto env = llvm::sys::Process::GetEnv("LOOM_BOARD"))
      if (!env->empty())
        name = *env;
    info_.kind = DeviceKind::Accelerator;
    info_.denormals = false; // the board's FP units flush denormals to zero
    info_.compilerAvailable = true;
    info_.computeUnits = 1;
    // The hardware's local ids and sizes are as wide as this needs (hls NarrowIntegerWidths).
    info_.maxWorkGroupSize = hls::MaxWorkGroupItems;
    info_.maxWorkItemSizes = {hls::MaxWorkGroupItems, hls::MaxWorkGroupItems, hls::MaxWorkGroupItems};
    info_.opencl = frontend::openclSupport(frontend::Target::Hardware);
    // A kernel using sub-groups runs a work-group at a time (hls FormWorkGroupLoops), its work-items
    // streaming through in local linear id order, a sub-group being a run of them.
    info_.subGroupSize = hls::SubGroupItems;
    // A pipe argument is a stream port of the kernel's module, bound at each launch to the board's
    // FIFO of that pipe. These are OpenCL 3.0's minimums for a device with pipes (hls::MaxPipePacketBytes).
    info_.maxPipeArgs = 16;
    info_.maxPipePacketBytes = 1024;
    info_.maxPipeReservations = 1;
    auto board = board::loadBoard(name);
    if (!board) {
      unavailable_ = llvm::formatv("board '{0}' is not available: {1}", name,
                                   llvm::toString(board.takeError()));
      info_.name = "Loom simulated board (" + name + ", unavailable)";
      return;
    }
    board_ = std::move(*board);
    info_.name = "Loom simulated board (" + board_.name + ")";
    info_.clockMHz = static_cast<uint32_t>(std::lround(board_.clockMHz));
    info_.profilingResolutionNs =
        std::max<uint32_t>(1, static_cast<uint32_t>(std::lround(board_.cycleNs())));
    if (llvm::Error err = memory_.init(board_.memory.sizeBytes)) {
      unavailable_ = llvm::toString(std::move(err));
      return;
    }
    info_.globalMemBytes = board_.memory.sizeBytes;
    info_.maxAllocBytes = board_.memory.sizeBytes - PageBytes;
    // __local arrays live in the FPGA's block RAMs (36 Kbit each), as the hardware flow counts them.
    info_.localMemBytes = board_.resources.brams * 36 * 1024 / 8;
  }

  const DeviceInfo &info() const override { return info_; }

  llvm::Expected<Allocation> allocate(size_t bytes) override {
    if (!unavailable_.empty())
      return error(unavailable_);
    return memory_.allocate(bytes);
  }

  void release(const Allocation &allocation) override { memory_.release(allocation); }

  llvm::Expected<std::unique_ptr<DeviceProgram>>
  buildFromSource(llvm::StringRef source, llvm::StringRef options, std::string &log) override {
    OfflineOptions offline;
    offline.sourceName = "program.cl";
    offline.source = source.str();
    offline.buildOptions = options.str();
    return buildCached(ProgramCache::key({board_.json, options, source}), offline, log,
                       [this](const OfflineOptions &offline) { return compileOffline(offline, board_); });
  }

  llvm::Expected<frontend::ObjectCode> compileObject(const frontend::SourceInput &source,
                                                     std::string &log) override {
    if (!unavailable_.empty()) {
      log = unavailable_;
      return error(log);
    }
    OfflineOptions offline;
    offline.sourceName = source.fileName;
    offline.source = source.text;
    offline.buildOptions = source.options;
    offline.headers = source.headers;
    auto object = loom::compileObject(offline, board_);
    if (!object) {
      log = llvm::toString(object.takeError());
      return error(log);
    }
    log = object->log;
    return object;
  }

  llvm::Expected<std::unique_ptr<DeviceProgram>> link(llvm::ArrayRef<frontend::ObjectCode> objects,
                                                      llvm::StringRef options, std::string &log) override {
    // The cache key covers what synthesis sees: the objects' hardware code, in link order.
    std::string units;
    for (const frontend::ObjectCode &object : objects)
      units += llvm::formatv("{0}:", object.hardwareBitcode.size()).str() + object.hardwareBitcode;
    OfflineOptions offline;
    offline.sourceName = "linked program";
    offline.buildOptions = options.str();
    return buildCached(ProgramCache::key({board_.json, "link " + options.str(), units}), offline, log,
                       [&](const OfflineOptions &offline) { return linkOffline(objects, offline, board_); });
  }

  llvm::Error checkObject(const frontend::ObjectCode &object) const override {
    return frontend::checkObjectFor(object, board_.name);
  }

  llvm::Expected<std::unique_ptr<DeviceProgram>> loadBinary(llvm::StringRef bytes,
                                                            std::string &log) override {
    auto fail = [&](const llvm::Twine &message) {
      log = message.str();
      return error(log);
    };
    if (!unavailable_.empty())
      return fail(unavailable_);
    auto binary = frontend::readBinary(bytes);
    if (!binary)
      return fail(llvm::toString(binary.takeError()));
    std::string target = binary->board();
    if (target != board_.name)
      return fail(llvm::formatv("binary was compiled for board '{0}' but this device is board "
                                "'{1}': recompile with loomc --board {1}",
                                target, board_.name));
    auto hardware = hls::hardwareKernelsOf(binary->meta);
    if (!hardware)
      return fail(llvm::toString(hardware.takeError()));
    const llvm::json::Array &entries = *binary->meta.getArray("kernels");
    std::vector<frontend::KernelInfo> kernels;
    for (size_t i = 0; i < entries.size(); ++i) {
      frontend::KernelInfo info;
      llvm::json::Path::Root root("kernels");
      if (!frontend::fromJSON(entries[i], info, llvm::json::Path(root).index(i)))
        return fail(llvm::formatv("bad kernel {0} in the binary's metadata: {1}", i,
                                  llvm::toString(root.getError())));
      kernels.push_back(std::move(info));
    }
    std::vector<lowering::PrintfCall> printfCalls;
    if (const llvm::json::Value *calls = binary->meta.get("printf")) {
      llvm::json::Path::Root root("printf");
      if (!llvm::json::fromJSON(*calls, printfCalls, root))
        return fail(llvm::formatv("bad printf table in the binary's metadata: {0}", llvm::toString(root.getError())));
    }
    // A program without kernels (helper functions only) has nothing to simulate.
    if (kernels.empty()) {
      log = binary->log;
      return std::unique_ptr<DeviceProgram>(
          new BoardProgram(bytes.str(), {}, {}, std::move(printfCalls), nullptr));
    }
    if (binary->model.empty())
      return fail("the binary carries no simulation model (.loom.model is empty): recompile with "
                  "loomc");

    sim::BoardProcess::Options options;
    options.executable = findBoardExecutable();
    options.board = board_.name;
    options.memoryFd = memory_.fd();
    options.memorySize = memory_.size();
    auto process = sim::BoardProcess::spawn(options);
    if (!process)
      return fail(llvm::toString(process.takeError()));
    if (llvm::Error err = (*process)->loadProgram(binary->model, *hardware))
      return fail(llvm::toString(std::move(err)));
    log = binary->log;
    return std::unique_ptr<DeviceProgram>(new BoardProgram(
        bytes.str(), std::move(kernels), std::move(*hardware), std::move(printfCalls), std::move(*process)));
  }

  llvm::Expected<LaunchResult> launch(DeviceProgram &program, unsigned kernelIndex,
                                      llvm::ArrayRef<ArgValue> args,
                                      const NDRange &range) override {
    auto *boardProgram = dynamic_cast<BoardProgram *>(&program);
    if (!boardProgram)
      return error("the program was not loaded on the simulated board");
    if (kernelIndex >= boardProgram->kernels().size())
      return error(llvm::formatv("no kernel {0} in the program", kernelIndex));
    // A kernel that prints takes a zeroed printf buffer after its own arguments, which it appends
    // records to (lowering/Printf.h); they are printed once it is done.
    llvm::Optional<Allocation> printfBuffer;
    auto releasePrintfBuffer = llvm::make_scope_exit([&] {
      if (printfBuffer)
        memory_.release(*printfBuffer);
    });
    if (boardProgram->hardware()[kernelIndex].printfBuffer) {
      auto allocated = memory_.allocate(lowering::PrintfBufferBytes);
      if (!allocated)
        return allocated.takeError();
      printfBuffer = *allocated;
      std::memset(printfBuffer->host, 0, printfBuffer->size);
      const uint32_t firstRecord = lowering::PrintfHeaderBytes;
      std::memcpy(printfBuffer->host, &firstRecord, sizeof(firstRecord));
    }
    auto request = requestFor(*boardProgram, kernelIndex, args, range,
                              printfBuffer ? llvm::Optional<uint64_t>(printfBuffer->deviceAddress) : llvm::None);
    if (!request)
      return request.takeError();
    auto stats = boardProgram->process().runKernel(std::move(*request));
    if (!stats)
      return stats.takeError();
    LaunchResult result;
    result.cycles = stats->cycles;
    result.deviceNs = static_cast<uint64_t>(std::llround(stats->simulatedNs));
    if (printfBuffer)
      result.printed = lowering::formatPrintfRecords(
          boardProgram->printfCalls(),
          llvm::makeArrayRef(static_cast<const uint8_t *>(printfBuffer->host), lowering::PrintfBufferBytes),
          result.printfBufferFull);
    return result;
  }

  llvm::Error startAutorun(DeviceProgram &program, unsigned kernelIndex, std::vector<ArgValue> args,
                           const NDRange &range, std::function<void(const std::string &)> failed) override {
    auto *boardProgram = dynamic_cast<BoardProgram *>(&program);
    if (!boardProgram)
      return error("the program was not loaded on the simulated board");
    if (kernelIndex >= boardProgram->kernels().size())
      return error(llvm::formatv("no kernel {0} in the program", kernelIndex));
    auto request = requestFor(*boardProgram, kernelIndex, args, range, llvm::None);
    if (!request)
      return request.takeError();
    request->autorun = true;
    // The board starts the kernel again each time it finishes, so it answers only a failure.
    boardProgram->autorun().start(
        [boardProgram, request = std::move(*request)]() -> llvm::Error {
          return boardProgram->process().runKernel(request).takeError();
        },
        std::move(failed));
    return llvm::Error::success();
  }

private:
  /// The RunKernel message of a launch of kernel `kernelIndex` (a valid index) with `args` over
  /// `range`; `printfBuffer` is the device address of its printf buffer, if it prints.
  llvm::Expected<sim::protocol::RunKernel> requestFor(BoardProgram &boardProgram, unsigned kernelIndex,
                                                      llvm::ArrayRef<ArgValue> args, const NDRange &range,
                                                      llvm::Optional<uint64_t> printfBuffer) {
    const std::string &name = boardProgram.kernels()[kernelIndex].name;
    sim::protocol::RunKernel request;
    request.kernel = kernelIndex;
    for (size_t i = 0; i < args.size(); ++i) {
      const ArgValue &arg = args[i];
      switch (arg.kind) {
      case ArgValue::Kind::Buffer:
        request.args.push_back(arg.buffer.deviceAddress);
        break;
      case ArgValue::Kind::Scalar: {
        // A vector over 8 bytes has a port that wide, taking that many bytes of words.
        const size_t words = boardProgram.hardware()[kernelIndex].argBytes(unsigned(i)) / 8;
        if (arg.bytes.size() > words * 8)
          return error(llvm::formatv("kernel '{0}' argument {1}: {2} bytes given, but the kernel's argument "
                                     "port takes {3}",
                                     name, i, arg.bytes.size(), words * 8));
        std::vector<uint64_t> value(words, 0);
        std::memcpy(value.data(), arg.bytes.data(), arg.bytes.size()); // little-endian zero extension
        request.args.insert(request.args.end(), value.begin(), value.end());
        break;
      }
      case ArgValue::Kind::Local: {
        const auto &declared = boardProgram.kernels()[kernelIndex].args;
        if (i >= declared.size() || declared[i].addressSpace != frontend::AddressSpace::Local)
          return error(llvm::formatv("kernel '{0}' argument {1} is not a __local pointer: it takes no __local "
                                     "memory size",
                                     name, i));
        // clEnqueueNDRangeKernel checked this already; Device::launch's other callers (tests) did not.
        if (auto err = boardProgram.checkLocalArgument(kernelIndex, unsigned(i), arg.localBytes))
          return std::move(err);
        request.args.push_back(0);
        break;
      }
      }
    }
    for (unsigned d = 0; d < 3; ++d) {
      bool used = d < range.dims;
      request.offset[d] = used ? range.offset[d] : 0;
      request.size[d] = used ? range.global[d] : 1;
    }
    const hls::HardwareKernel &hardware = boardProgram.hardware()[kernelIndex];
    // Each pipe port takes the pipe object its argument holds: the board keeps that pipe's FIFO, of
    // the depth clCreatePipe gave, for the program's life. The pipe's storage here only names it (by
    // its serial number: a later pipe may reuse its memory) and says its shape.
    for (const hls::PipePort &port : hardware.pipePorts) {
      const ArgValue *arg = port.arg < args.size() ? &args[port.arg] : nullptr;
      if (!arg || arg->kind != ArgValue::Kind::Buffer || !arg->buffer.host)
        return error(llvm::formatv("kernel '{0}' argument {1}: a pipe argument needs a pipe object", name, port.arg));
      const auto &pipe = *static_cast<const PipeHeader *>(arg->buffer.host);
      if (pipe.packetBytes != port.packetBytes)
        return error(llvm::formatv("kernel '{0}' argument {1}: the pipe's packets are {2} bytes, the kernel's {3}",
                                   name, port.arg, pipe.packetBytes, port.packetBytes));
      request.pipes.push_back({pipe.serial, pipe.capacity, pipe.packetBytes});
    }
    if (printfBuffer)
      request.args.push_back(*printfBuffer);
    // A kernel that uses work-group functions takes the local sizes, the work dimension and the last
    // groups' sizes after those (HardwareKernel::workGroupArgs); one with barriers runs whole
    // work-groups, so its NDRange counts them, an invocation each.
    std::array<uint64_t, 3> invocations = range.global, invocationsPerGroup = range.local;
    if (hardware.workGroupLoops)
      for (unsigned d = 0; d < range.dims; ++d) {
        request.size[d] = invocations[d] = llvm::divideCeil(range.global[d], range.local[d]);
        invocationsPerGroup[d] = 1;
      }
    if (hardware.workGroupArgs) {
      for (unsigned d = 0; d < 3; ++d)
        request.args.push_back(d < range.dims ? range.local[d] : 1);
      request.args.push_back(range.dims);
      for (unsigned d = 0; d < 3; ++d) // the last group's size (OpenCL 2.0: it may be partial)
        request.args.push_back(d < range.dims ? range.global[d] - (llvm::divideCeil(range.global[d], range.local[d]) - 1) * range.local[d] : 1);
    }
    // With compute units, each unit's part of the range (whole work-groups) follows.
    const std::vector<uint64_t> shares =
        hls::computeUnitShares(hardware.computeUnits, range.dims, range.offset, invocations, invocationsPerGroup);
    request.args.insert(request.args.end(), shares.begin(), shares.end());
    return request;
  }

  /// Builds with `compile` (the in-process loomc flow), cached on disk under `key`: a hit loads the
  /// stored binary without rebuilding the Verilated model.
  llvm::Expected<std::unique_ptr<DeviceProgram>>
  buildCached(const std::string &key, OfflineOptions offline, std::string &log,
              llvm::function_ref<llvm::Expected<OfflineResult>(const OfflineOptions &)> compile) {
    if (!unavailable_.empty()) {
      log = unavailable_;
      return error(log);
    }
    const ProgramCache cache = ProgramCache::fromEnvironment(".loom");
    if (auto cached = cache.lookup(key)) {
      std::string loadLog;
      auto program = loadBinary(*cached, loadLog);
      if (program) {
        log = "loom: cached build " + cache.pathOf(key) + "\n" + loadLog;
        return program;
      }
      // A damaged or stale entry is rebuilt and replaced.
      llvm::consumeError(program.takeError());
    }
    std::string progress;
    const auto start = std::chrono::steady_clock::now();
    offline.progress = [&](llvm::StringRef step) {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      progress += llvm::formatv("loom: [{0,5:f1}s] {1}\n", seconds, step).str();
    };
    progress += llvm::formatv("loom: building for board '{0}'\n", board_.name).str();
    if (cache.enabled())
      offline.precompiledHeaderDirectory = cache.directory() + "/pch";
    auto compiled = compile(offline);
    if (!compiled) {
      // The error keeps the compiler's message (the API layer maps option errors by it).
      std::string message = llvm::toString(compiled.takeError());
      log = progress + message;
      return error(message);
    }
    std::string stored;
    if (cache.enabled()) {
      if (auto err = cache.store(key, compiled->binary))
        stored = "loom: warning: " + llvm::toString(std::move(err)) + "\n";
      else
        stored = "loom: cached as " + cache.pathOf(key) + "\n";
    }
    std::string loadLog;
    auto program = loadBinary(compiled->binary, loadLog);
    log = progress + stored + loadLog;
    return program;
  }

  board::Board board_;
  DeviceInfo info_;
  DeviceMemory memory_;
  std::string unavailable_; ///< Why the device cannot work, when it cannot.
};

} // namespace

std::unique_ptr<Device> createBoardDevice() { return std::make_unique<BoardDevice>(); }

} // namespace loom::runtime

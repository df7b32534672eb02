//===- SpirvReader.cpp - SPIR-V binaries to LLVM IR -----------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// clCreateProgramWithIL input: SPIR-V goes through SPIRV-LLVM-Translator 15 into a spir64 module with
// typed pointers and the same kernel_arg_* metadata Clang emits, so the rest of Loom cannot tell the
// two sources apart.
//
// The translator calls std::exit() on a module it rejects (SPIRV::SPIRVDbgError defaults to Exit and
// is not exported by the shared library), which would kill the application calling
// clCreateProgramWithIL. So the translation runs in a forked child: the child writes bitcode (or the
// translator's message) to pipes, the parent parses the bitcode into the caller's context. A child
// that exits, crashes or hangs becomes an llvm::Error.
//===----------------------------------------------------------------------===//
#include "loom/frontend/OpenCLCompiler.h"
#include "loom/frontend/Optimize.h"

#include "LLVMSPIRVLib.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace loom::frontend {

namespace {

constexpr uint32_t SpirvMagic = 0x07230203;
constexpr uint32_t SpirvMagicSwapped = 0x03022307;
constexpr auto TranslationTimeout = std::chrono::minutes(5);

llvm::Error spirvError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void writeAll(int fd, llvm::StringRef data) {
  while (!data.empty()) {
    ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return;
    data = data.drop_front(static_cast<size_t>(written));
  }
}

/// Runs in the forked child: translate, write bitcode to `outFd` or a message to `errFd`, _exit.
[[noreturn]] void translateInChild(llvm::StringRef spirv, int outFd, int errFd) {
  // The translator reports to stderr before exiting: route it into the message pipe.
  ::dup2(errFd, STDERR_FILENO);
  int devNull = ::open("/dev/null", O_WRONLY);
  if (devNull >= 0)
    ::dup2(devNull, STDOUT_FILENO);

  SPIRV::TranslatorOpts options;
  options.setGenKernelArgNameMDEnabled(true);
  // Producers that use the same option keep OpenCL type names SPIR-V cannot express ("uint").
  options.setPreserveOCLKernelArgTypeMetadataThroughString(true);

  llvm::LLVMContext context;
  context.setOpaquePointers(false); // The translator produces typed pointers.
  std::istringstream stream(spirv.str());
  llvm::Module *module = nullptr;
  std::string message;
  if (!llvm::readSpirv(context, options, stream, module, message) || !module) {
    writeAll(errFd, message.empty() ? "the translator rejected the module" : message);
    ::_exit(1);
  }
  llvm::SmallVector<char, 0> bitcode;
  llvm::raw_svector_ostream bitcodeStream(bitcode);
  llvm::WriteBitcodeToFile(*module, bitcodeStream);
  writeAll(outFd, llvm::StringRef(bitcode.data(), bitcode.size()));
  ::_exit(0);
}

struct ChildResult {
  std::string bitcode;
  std::string message;
  int status = 0;
  bool timedOut = false;
};

llvm::Expected<ChildResult> translateIsolated(llvm::StringRef spirv) {
  int outPipe[2], errPipe[2];
  if (::pipe2(outPipe, O_CLOEXEC) != 0)
    return spirvError(llvm::Twine("cannot translate SPIR-V: pipe failed: ") + std::strerror(errno));
  if (::pipe2(errPipe, O_CLOEXEC) != 0) {
    int saved = errno;
    ::close(outPipe[0]);
    ::close(outPipe[1]);
    return spirvError(llvm::Twine("cannot translate SPIR-V: pipe failed: ") + std::strerror(saved));
  }
  std::fflush(nullptr); // Otherwise the child's exit() would flush the parent's buffered output again.
  pid_t pid = ::fork();
  if (pid < 0) {
    int saved = errno;
    for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1]})
      ::close(fd);
    return spirvError(llvm::Twine("cannot translate SPIR-V: fork failed: ") + std::strerror(saved));
  }
  if (pid == 0) {
    ::close(outPipe[0]);
    ::close(errPipe[0]);
    translateInChild(spirv, outPipe[1], errPipe[1]);
  }
  ::close(outPipe[1]);
  ::close(errPipe[1]);

  ChildResult result;
  pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  std::string *sinks[2] = {&result.bitcode, &result.message};
  int openPipes = 2;
  const auto deadline = std::chrono::steady_clock::now() + TranslationTimeout;
  char buffer[65536];
  while (openPipes > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timedOut = true;
      ::kill(pid, SIGKILL);
      break;
    }
    int ready = ::poll(fds, 2, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR)
      break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t got = ::read(fds[i].fd, buffer, sizeof(buffer));
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --openPipes;
      } else {
        sinks[i]->append(buffer, static_cast<size_t>(got));
      }
    }
  }
  for (pollfd &fd : fds)
    if (fd.fd >= 0)
      ::close(fd.fd);
  while (::waitpid(pid, &result.status, 0) < 0 && errno == EINTR) {
  }
  return result;
}

} // namespace

bool isSpirv(llvm::StringRef bytes) {
  if (bytes.size() < 4)
    return false;
  uint32_t word = 0;
  std::memcpy(&word, bytes.data(), 4);
  return word == SpirvMagic || word == SpirvMagicSwapped;
}

llvm::Expected<std::unique_ptr<llvm::Module>> readSpirv(llvm::LLVMContext &context,
                                                        llvm::StringRef spirv) {
  if (!isSpirv(spirv))
    return spirvError("not a SPIR-V binary: the magic number 0x07230203 is missing");
  if (spirv.size() % 4 != 0 || spirv.size() < 20)
    return spirvError(llvm::formatv("invalid SPIR-V binary: {0} bytes is not a whole module (a "
                                    "20-byte header followed by 32-bit words)",
                                    spirv.size()));

  auto child = translateIsolated(spirv);
  if (!child)
    return child.takeError();
  llvm::StringRef message = llvm::StringRef(child->message).trim();
  if (child->timedOut)
    return spirvError(llvm::formatv("invalid SPIR-V binary: translation did not finish within {0} "
                                    "minutes",
                                    TranslationTimeout.count()));
  if (WIFSIGNALED(child->status))
    return spirvError(llvm::formatv("invalid SPIR-V binary: the SPIR-V translator crashed (signal "
                                    "{0}){1}{2}",
                                    WTERMSIG(child->status), message.empty() ? "" : ": ", message));
  if (!WIFEXITED(child->status) || WEXITSTATUS(child->status) != 0 || child->bitcode.empty())
    return spirvError("invalid SPIR-V binary: " +
                      (message.empty() ? llvm::StringRef("the translator rejected the module")
                                       : message));

  context.setOpaquePointers(false);
  auto module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(child->bitcode, "spirv-translation"), context);
  if (!module)
    return spirvError("invalid SPIR-V binary: the translated module does not load: " +
                      llvm::toString(module.takeError()));
  // The translator's output is unoptimised (work-item builtins rebuilt element by element into
  // vectors, locals in allocas); -O2 makes it the IR compileOpenCL gives.
  optimizeModule(**module, llvm::OptimizationLevel::O2);
  return std::move(*module);
}

} // namespace loom::frontend

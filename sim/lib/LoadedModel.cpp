//===- LoadedModel.cpp - dlopen a model from memory ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The bytes go into a memfd and are dlopen'ed through /proc/self/fd: no temporary file to clean up,
// and each load is a distinct object even when two programs carry identical models.
//===----------------------------------------------------------------------===//
#include "loom/sim/LoadedModel.h"

#include "llvm/Support/FormatVariadic.h"

#include "verilated.h"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

namespace loom::sim {
namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

template <typename Fn> llvm::Error resolve(void *handle, const char *name, Fn &out) {
  out = reinterpret_cast<Fn>(dlsym(handle, name));
  if (!out)
    return error(llvm::formatv("the simulation model lacks the function {0}: it was not built by "
                               "this version of Loom (rebuild the program with loomc)",
                               name));
  return llvm::Error::success();
}

} // namespace

// The model leaves libverilated's symbols undefined. This reference keeps loom_verilated a needed
// library of every program that loads models, even when it is linked with --as-needed.
const char *(*volatile verilatedAnchor)() = &Verilated::productName;

llvm::Expected<std::unique_ptr<LoadedModel>> LoadedModel::load(llvm::StringRef bytes) {
  int fd = memfd_create("loom-model", MFD_CLOEXEC);
  if (fd < 0)
    return error(llvm::formatv("cannot create a memfd for the simulation model: {0}",
                               std::strerror(errno)));
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int saved = errno;
      ::close(fd);
      return error(llvm::formatv("cannot write the simulation model to a memfd: {0}",
                                 std::strerror(saved)));
    }
    written += static_cast<size_t>(n);
  }
  return loadFromFd(fd);
}

llvm::Expected<std::unique_ptr<LoadedModel>> LoadedModel::loadFromFd(int fd) {
  // The dynamic loader recognises objects by name before it opens anything: a second
  // "/proc/self/fd/5" would return whatever was loaded under that name. Keeping the descriptor open
  // while the model is loaded keeps the name unique among loaded models; models are built with
  // -fno-gnu-unique so dlclose really unloads them and frees the name.
  std::string path = llvm::formatv("/proc/self/fd/{0}", fd).str();
  dlerror();
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *message = dlerror();
    ::close(fd);
    return error(llvm::formatv("the simulation model is not a loadable shared object: {0}",
                               message ? message : "unknown dlopen error"));
  }
  std::unique_ptr<LoadedModel> model(new LoadedModel);
  model->handle_ = handle;
  model->fd_ = fd;

  LoomModelAbiVersionFn abiVersion = nullptr;
  LoomModelKernelCountFn kernelCount = nullptr;
  LoomModelKernelNameFn kernelName = nullptr;
  if (auto err = resolve(handle, "loom_model_abi_version", abiVersion))
    return std::move(err);
  uint32_t version = abiVersion();
  if (version != LOOM_MODEL_ABI_VERSION)
    return error(llvm::formatv("the simulation model has ABI version {0} but this simulator "
                               "expects version {1}: rebuild the program with this loomc",
                               version, LOOM_MODEL_ABI_VERSION));
  if (auto err = resolve(handle, "loom_model_kernel_count", kernelCount))
    return std::move(err);
  if (auto err = resolve(handle, "loom_model_kernel_name", kernelName))
    return std::move(err);
  if (auto err = resolve(handle, "loom_model_create", model->create))
    return std::move(err);
  if (auto err = resolve(handle, "loom_model_destroy", model->destroy))
    return std::move(err);
  if (auto err = resolve(handle, "loom_model_start", model->start))
    return std::move(err);
  if (auto err = resolve(handle, "loom_model_cycle", model->cycle))
    return std::move(err);
  uint32_t count = kernelCount();
  for (uint32_t k = 0; k < count; ++k) {
    const char *name = kernelName(k);
    model->names_.push_back(name ? name : "");
  }
  return std::move(model);
}

LoadedModel::~LoadedModel() {
  if (handle_)
    dlclose(handle_);
  if (fd_ >= 0)
    ::close(fd_);
}

} // namespace loom::sim

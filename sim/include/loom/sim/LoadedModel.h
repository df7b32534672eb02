//===- LoadedModel.h - A simulation model .so, loaded into this process -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Loads model bytes without a file on disk (memfd + dlopen("/proc/self/fd/N")), resolves every
// ModelABI.h function and checks the ABI version. Any bad input (not an ELF, wrong ABI, missing
// function) is an error naming what is wrong; loading never crashes on garbage.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/sim/ModelABI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace loom::sim {

class LoadedModel {
public:
  /// Loads a model from its shared-object bytes.
  static llvm::Expected<std::unique_ptr<LoadedModel>> load(llvm::StringRef bytes);
  /// Loads a model from a file descriptor holding its bytes (for example a memfd received over the
  /// board protocol). Takes ownership of the descriptor: it stays open while the model is loaded.
  static llvm::Expected<std::unique_ptr<LoadedModel>> loadFromFd(int fd);

  ~LoadedModel();
  LoadedModel(const LoadedModel &) = delete;
  LoadedModel &operator=(const LoadedModel &) = delete;

  unsigned kernelCount() const { return static_cast<unsigned>(names_.size()); }
  const std::string &kernelName(unsigned kernel) const { return names_[kernel]; }

  // The model's functions (ModelABI.h), for the simulation loops.
  LoomModelCreateFn create = nullptr;
  LoomModelDestroyFn destroy = nullptr;
  LoomModelStartFn start = nullptr;
  LoomModelCycleFn cycle = nullptr;

private:
  LoadedModel() = default;
  void *handle_ = nullptr;
  int fd_ = -1;
  std::vector<std::string> names_;
};

/// One instance of a kernel of a loaded model; destroys it on scope exit.
class ModelInstance {
public:
  ModelInstance(const LoadedModel &model, unsigned kernel)
      : model_(model), instance_(model.create(kernel)) {}
  ~ModelInstance() {
    if (instance_)
      model_.destroy(instance_);
  }
  ModelInstance(const ModelInstance &) = delete;
  ModelInstance &operator=(const ModelInstance &) = delete;

  explicit operator bool() const { return instance_ != nullptr; }
  void start(const uint64_t *args, const uint64_t offset[3], const uint64_t size[3]) {
    model_.start(instance_, args, offset, size);
  }
  int cycle(LoomPort *ports, LoomStream *streams) { return model_.cycle(instance_, ports, streams); }

private:
  const LoadedModel &model_;
  void *instance_;
};

} // namespace loom::sim

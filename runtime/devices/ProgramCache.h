//===- ProgramCache.h - Device code built once, kept on disk ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// What a device builds slowly is stored under a content hash of everything it depends on, so
// building the same program again loads it instead:
//   - the board: clBuildProgram runs the whole hardware flow (Clang, HLS, Verilator, the host
//     compiler), seconds to minutes; a .loom binary, keyed by source, options and the board's
//     description, Verilated model included;
//   - the CPU device: a kernel's first launch optimises the program at O3 and generates code, half a
//     second for a small one; an object file (.o), keyed by the lowered module and the host CPU.
// Every key includes this Loom build. Directory: LOOM_CACHE_DIR, else $XDG_CACHE_HOME/loom, else
// ~/.cache/loom; LOOM_CACHE_DIR=off disables it. Writes are atomic (a temporary file renamed), so
// processes may share the directory.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace loom::runtime {

class ProgramCache {
public:
  /// The cache in the directory the environment names, of entries named <key><suffix> (".loom",
  /// ".o"); disabled when the environment names no directory.
  static ProgramCache fromEnvironment(llvm::StringRef suffix);
  ProgramCache(std::string directory, std::string suffix)
      : directory_(std::move(directory)), suffix_(std::move(suffix)) {}

  bool enabled() const { return !directory_.empty(); }
  const std::string &directory() const { return directory_; }
  /// This Loom build: its version and the identity (path, size, time) of the library holding this
  /// code, so a rebuilt Loom never reuses a binary an older one made.
  static const std::string &buildIdentity();
  /// The key of a build: a hash of this Loom build and `inputs`, every input of the build.
  static std::string key(llvm::ArrayRef<llvm::StringRef> inputs);
  /// Where the binary of `key` lives (whether or not it exists).
  std::string pathOf(llvm::StringRef key) const;
  /// The stored binary, if any.
  llvm::Optional<std::string> lookup(llvm::StringRef key) const;
  llvm::Error store(llvm::StringRef key, llvm::StringRef binary) const;

private:
  std::string directory_;
  std::string suffix_;
};

} // namespace loom::runtime

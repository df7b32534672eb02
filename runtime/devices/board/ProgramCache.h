//===- ProgramCache.h - Board programs built from source, kept on disk -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// clBuildProgram on the board runs the whole hardware flow (Clang, HLS, Verilator, the host
// compiler): seconds to minutes. Its result, a .loom binary, is stored under a content hash of
// everything it depends on (source, options, the board's description, this Loom build), so building
// the same program again loads the binary, Verilated model included, without rebuilding anything.
// Directory: LOOM_CACHE_DIR, else $XDG_CACHE_HOME/loom, else ~/.cache/loom; LOOM_CACHE_DIR=off
// disables it. Writes are atomic (a temporary file renamed), so processes may share the directory.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace loom::runtime {

class ProgramCache {
public:
  /// The cache in the directory the environment names; disabled when it names none.
  static ProgramCache fromEnvironment();
  explicit ProgramCache(std::string directory) : directory_(std::move(directory)) {}

  bool enabled() const { return !directory_.empty(); }
  /// This Loom build: its version and the identity (path, size, time) of the library holding this
  /// code, so a rebuilt Loom never reuses a binary an older one made.
  static const std::string &buildIdentity();
  /// The key of a program: a hash of every input of the build.
  static std::string key(llvm::StringRef source, llvm::StringRef options, llvm::StringRef boardJson);
  /// Where the binary of `key` lives (whether or not it exists).
  std::string pathOf(llvm::StringRef key) const;
  /// The stored binary, if any.
  llvm::Optional<std::string> lookup(llvm::StringRef key) const;
  llvm::Error store(llvm::StringRef key, llvm::StringRef binary) const;

private:
  std::string directory_;
};

} // namespace loom::runtime

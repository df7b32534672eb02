// SPDX-License-Identifier: Apache-2.0
// Helpers of the tests that call the CPU device directly: kernel arguments, and a program cache in a
// directory of the test's own.
#pragma once

#include "devices/Device.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

inline loom::runtime::ArgValue bufferArg(const loom::runtime::Allocation &allocation) {
  loom::runtime::ArgValue arg;
  arg.kind = loom::runtime::ArgValue::Kind::Buffer;
  arg.buffer = allocation;
  return arg;
}

template <typename T> loom::runtime::ArgValue scalarArg(T value) {
  loom::runtime::ArgValue arg;
  arg.kind = loom::runtime::ArgValue::Kind::Scalar;
  arg.bytes.resize(sizeof value);
  std::memcpy(arg.bytes.data(), &value, sizeof value);
  return arg;
}

/// LOOM_CACHE_DIR set to a new, empty directory while it lives; then as it was, the directory gone.
class TemporaryCacheDirectory {
public:
  TemporaryCacheDirectory() {
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("loom-test-cache", path_));
    if (const char *before = std::getenv("LOOM_CACHE_DIR"))
      previous_ = before;
    REQUIRE(::setenv("LOOM_CACHE_DIR", path_.c_str(), 1) == 0);
  }
  ~TemporaryCacheDirectory() {
    if (previous_)
      ::setenv("LOOM_CACHE_DIR", previous_->c_str(), 1);
    else
      ::unsetenv("LOOM_CACHE_DIR");
    llvm::sys::fs::remove_directories(path_);
  }
  TemporaryCacheDirectory(const TemporaryCacheDirectory &) = delete;
  TemporaryCacheDirectory &operator=(const TemporaryCacheDirectory &) = delete;

  llvm::StringRef path() const { return path_; }
  /// The object files (.o) in it.
  std::vector<std::string> objects() const {
    std::vector<std::string> paths;
    std::error_code error;
    for (llvm::sys::fs::directory_iterator it(path_, error), end; it != end && !error; it.increment(error))
      if (llvm::StringRef(it->path()).endswith(".o"))
        paths.push_back(it->path());
    return paths;
  }

private:
  llvm::SmallString<128> path_;
  std::optional<std::string> previous_;
};

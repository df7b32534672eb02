//===- ProgramCache.cpp - Device code built once, kept on disk ------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "devices/ProgramCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

namespace loom::runtime {
namespace {

/// What ProgramCache::buildIdentity names.
std::string identifyBuild() {
  std::string identity = LOOM_VERSION;
  Dl_info info;
  llvm::sys::fs::file_status status;
  if (dladdr(reinterpret_cast<void *>(&identifyBuild), &info) && info.dli_fname &&
      !llvm::sys::fs::status(info.dli_fname, status))
    identity += llvm::formatv(" {0} {1} {2}", info.dli_fname, status.getSize(),
                              status.getLastModificationTime().time_since_epoch().count())
                    .str();
  return identity;
}

} // namespace

ProgramCache ProgramCache::fromEnvironment(llvm::StringRef suffix) {
  if (auto env = llvm::sys::Process::GetEnv("LOOM_CACHE_DIR"))
    return ProgramCache(*env == "off" ? "" : *env, suffix.str());
  llvm::SmallString<256> directory;
  if (auto xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); xdg && !xdg->empty())
    directory = *xdg;
  else if (!llvm::sys::path::home_directory(directory))
    return ProgramCache("", suffix.str());
  else
    llvm::sys::path::append(directory, ".cache");
  llvm::sys::path::append(directory, "loom");
  return ProgramCache(directory.str().str(), suffix.str());
}

const std::string &ProgramCache::buildIdentity() {
  static const std::string identity = identifyBuild();
  return identity;
}

std::string ProgramCache::key(llvm::ArrayRef<llvm::StringRef> inputs) {
  llvm::SHA256 hash;
  // Each part is preceded by its length, so no two different inputs hash the same bytes.
  auto add = [&](llvm::StringRef part) {
    hash.update(std::to_string(part.size()) + ":");
    hash.update(part);
  };
  add(buildIdentity());
  for (llvm::StringRef part : inputs)
    add(part);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::string ProgramCache::pathOf(llvm::StringRef key) const {
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, key + suffix_);
  return path.str().str();
}

llvm::Optional<std::string> ProgramCache::lookup(llvm::StringRef key) const {
  if (!enabled())
    return llvm::None;
  auto buffer = llvm::MemoryBuffer::getFile(pathOf(key), /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::None;
  return (*buffer)->getBuffer().str();
}

llvm::Error ProgramCache::store(llvm::StringRef key, llvm::StringRef binary) const {
  if (!enabled())
    return llvm::Error::success();
  if (auto err = llvm::sys::fs::create_directories(directory_))
    return llvm::createStringError(err, "cannot create the program cache directory '" + directory_ +
                                            "': " + err.message());
  const std::string path = pathOf(key);
  llvm::SmallString<256> temporary;
  int fd = -1;
  if (auto err = llvm::sys::fs::createUniqueFile(path + ".%%%%%%.tmp", fd, temporary))
    return llvm::createStringError(err, "cannot write to the program cache '" + directory_ + "': " + err.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << binary;
    os.close();
    if (os.has_error()) {
      llvm::sys::fs::remove(temporary);
      return llvm::createStringError(os.error(), "cannot write '" + temporary + "': " + os.error().message());
    }
  }
  if (auto err = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return llvm::createStringError(err, "cannot store '" + path + "': " + err.message());
  }
  return llvm::Error::success();
}

} // namespace loom::runtime

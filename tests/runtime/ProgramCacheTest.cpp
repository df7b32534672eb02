// SPDX-License-Identifier: Apache-2.0
// The program cache's key: this Loom build (its version, then the library holding the code) is
// hashed in before a build's inputs, each input apart from the next. Which inputs a device gives
// (the board: its description, the options, the source) is tested where the board device builds
// (tests/sim/BoardDeviceTest.cpp).
#include "devices/ProgramCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include <catch2/catch.hpp>

#include <cstring>

using loom::runtime::ProgramCache;

TEST_CASE("a program cache key hashes this Loom build's version and identity, then each input apart") {
  const std::string &identity = ProgramCache::buildIdentity();
  INFO(identity);
  // The version, then the library's path, size and time: a rebuilt Loom of the same version differs.
  CHECK(llvm::StringRef(identity).startswith(LOOM_VERSION " "));
  CHECK(identity.size() > std::strlen(LOOM_VERSION " "));

  // With no inputs, the key is the hash of the identity alone (length-prefixed, as every part is).
  llvm::SHA256 identityOnly;
  identityOnly.update(std::to_string(identity.size()) + ":" + identity);
  CHECK(ProgramCache::key({}) == llvm::toHex(identityOnly.final(), /*LowerCase=*/true));

  const std::string key = ProgramCache::key({"board", "-DN=1", "source"});
  CHECK(key.size() == 64);
  CHECK(key == ProgramCache::key({"board", "-DN=1", "source"}));
  CHECK(key != ProgramCache::key({"board", "-DN=2", "source"}));
  // Where one input ends and the next begins is part of the key.
  CHECK(ProgramCache::key({"ab", "c"}) != ProgramCache::key({"a", "bc"}));
  CHECK(ProgramCache::key({"a"}) != ProgramCache::key({"a", ""}));
}

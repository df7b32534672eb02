// SPDX-License-Identifier: Apache-2.0
// Catch2 helpers for llvm::Expected and llvm::Error.
#pragma once

#include "llvm/Support/Error.h"

#include <catch2/catch.hpp>
#include <string>

/// Fails the test with the error's message when `expected` holds an error.
#define REQUIRE_OK(expected)                                                                         \
  do {                                                                                               \
    auto &&loomValue_ = (expected);                                                                  \
    if (!loomValue_)                                                                                 \
      FAIL(llvm::toString(loomValue_.takeError()));                                                  \
  } while (0)

/// Fails the test with the error's message when there is one.
inline void requireNoError(llvm::Error error) {
  if (error)
    FAIL(llvm::toString(std::move(error)));
}

/// Requires that `expected` holds an error and returns its message.
template <typename T> std::string errorMessage(llvm::Expected<T> &expected) {
  REQUIRE_FALSE(static_cast<bool>(expected));
  return llvm::toString(expected.takeError());
}
template <typename T> std::string errorMessage(llvm::Expected<T> &&expected) {
  return errorMessage(expected);
}
inline std::string errorMessage(llvm::Error error) {
  REQUIRE(static_cast<bool>(error));
  return llvm::toString(std::move(error));
}

/// How many times `needle` occurs in `text` (overlapping ones too).
inline size_t count(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

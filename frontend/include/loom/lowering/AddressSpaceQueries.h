//===- AddressSpaceQueries.h - to_global, to_local, to_private ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// OpenCL C 2.0's to_global, to_local and to_private (section 6.13.9): Clang 15 calls these for them,
// with the generic pointer as an i8 pointer, and expects the pointer in the named space back, or
// null when it points elsewhere. Each back end answers them its own way: in hardware, from the space
// a pointer provably comes from (hls/passes/InferAddressSpaces.cpp); on the CPU, from the memory the
// launch gave the work-group (runtime/devices/cpu/AddressSpaceQueries.cpp).
//===----------------------------------------------------------------------===//
#pragma once

namespace loom::lowering {

constexpr const char *ToGlobalFunction = "__to_global";
constexpr const char *ToLocalFunction = "__to_local";
constexpr const char *ToPrivateFunction = "__to_private";

} // namespace loom::lowering

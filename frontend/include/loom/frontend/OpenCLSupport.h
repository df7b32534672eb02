//===- OpenCLSupport.h - What OpenCL each compile target's device supports -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One list per target of the OpenCL C versions, extensions and optional OpenCL C 3.0 features its
// device implements: the board for Target::Hardware (what hls/ synthesises), the CPU device for
// Target::Host (its builtin library and work-group lowering). compileOpenCL defines exactly these
// macros (Clang's -cl-ext, then a prelude that undefines what Clang's own header adds for every
// SPIR target), and the runtime reports the same lists (CL_DEVICE_EXTENSIONS[_WITH_VERSION],
// CL_DEVICE_OPENCL_C_FEATURES, CL_DEVICE_OPENCL_C_ALL_VERSIONS), so a kernel's #ifdefs and the
// host's queries never disagree.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/frontend/OpenCLCompiler.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace loom::frontend {

/// A name with its version, as cl_name_version carries them.
struct NamedVersion {
  llvm::StringRef name;
  unsigned major = 1, minor = 0, patch = 0;
};

/// The device's OpenCL: the platform version, the OpenCL C versions it supports fully, its
/// extensions and its OpenCL C 3.0 optional features.
struct OpenCLSupport {
  NamedVersion version;                    ///< "OpenCL" 3.0.0: CL_DEVICE_VERSION and __OPENCL_VERSION__.
  std::vector<NamedVersion> languages;     ///< "OpenCL C" versions: CL_DEVICE_OPENCL_C_ALL_VERSIONS.
  std::vector<NamedVersion> extensions;    ///< cl_khr_*: reported and defined as macros.
  std::vector<NamedVersion> features;      ///< __opencl_c_*: reported and defined as macros.
  bool hasFeature(llvm::StringRef name) const;
  /// The extension names separated by spaces (CL_DEVICE_EXTENSIONS).
  std::string extensionString() const;
};

/// What `target`'s device supports.
const OpenCLSupport &openclSupport(Target target);

/// The source compileOpenCL includes before the kernel, in place of Clang's default header:
/// __OPENCL_VERSION__, a #define of each of `support`'s extensions and (OpenCL C 3.0) features, Clang's
/// opencl-c-base.h, then an #undef of every extension and feature macro Clang may define that
/// `support` lacks.
std::string openclPrelude(const OpenCLSupport &support);

/// Clang's -cl-ext value: every extension and feature off, then `support`'s on.
std::string clangExtensionOption(const OpenCLSupport &support);

} // namespace loom::frontend

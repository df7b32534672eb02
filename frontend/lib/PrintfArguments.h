//===- PrintfArguments.h - printf arguments no conversion prints -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>

namespace clang {
class ASTConsumer;
class DiagnosticsEngine;
} // namespace clang

namespace loom::frontend {

/// Reports, at the argument, each struct or union passed to printf: no conversion of the OpenCL C
/// printf prints one, and Clang 15's code generation with typed pointers crashes on such a call, so
/// this error has to come before it.
std::unique_ptr<clang::ASTConsumer> createPrintfArgumentChecker(clang::DiagnosticsEngine &diagnostics);

} // namespace loom::frontend

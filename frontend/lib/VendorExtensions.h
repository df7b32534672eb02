//===- VendorExtensions.h - Intel's and Xilinx's FPGA attributes and pragmas -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// FPGA OpenCL code is written for Intel's aoc or AMD's Vitis, with their kernel, memory and loop
// attributes and pragmas. Clang 15 knows none of them: it warns that the attributes are unknown and
// silently drops the pragmas. Loom gives each one its vendor's meaning where the hardware flow
// implements it, and otherwise a warning at its file:line:col that says it is ignored and why.
//
// Kernel attributes it honours leave an annotation `loom:NAME(ARGS)` on the kernel, which
// compileOpenCL moves from llvm.global.annotations (where it would keep the kernel alive, and its
// work-item calls unresolved, on the CPU device) to the kernel's `loom.vendor_attributes` metadata,
// which KernelInfo reads. Loop pragmas become Clang's own loop hints, so
// they reach LLVM as loop metadata (`#pragma ii N` -> llvm.loop.pipeline.initiationinterval,
// `#pragma ivdep` -> llvm.loop.parallel_accesses), which hls/ reads; `#pragma max_interleaving N`,
// which no hint carries, becomes loom.loop.max_interleaving through LoopPragmaBinding.h.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/frontend/OpenCLCompiler.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class DiagnosticConsumer;
class DiagnosticOptions;
class DiagnosticsEngine;
class Preprocessor;
} // namespace clang

namespace loom::frontend {

/// The prefix of the annotations honoured kernel attributes leave, e.g. "loom:max_global_work_dim(0)".
constexpr llvm::StringLiteral VendorAnnotationPrefix = "loom:";
/// The kernel metadata holding them afterwards: a tuple of strings "max_global_work_dim(0)".
constexpr llvm::StringLiteral VendorAttributesMetadata = "loom.vendor_attributes";

/// The vendor attributes compileOpenCL left on kernel `f`, as written: "name(1,2,3)".
std::vector<std::string> vendorAttributesOf(const llvm::Function &f);
/// The integers of a vendor attribute written "name(1,2,3)", when it is `name`.
std::optional<std::vector<uint64_t>> argumentsOf(llvm::StringRef attribute, llvm::StringRef name);

/// The most invocations `#pragma max_interleaving` may let into a loop: as many as a Loom loop
/// admits by default (hls' LoopWorkItemLimit).
constexpr unsigned MaxLoopInterleaving = 32;

/// The most banks an on-chip array may be split into (numbanks, bank_bits, xcl_array_partition).
constexpr unsigned MaxBanks = 256;

/// The most copies num_compute_units may ask of a kernel's hardware, in all dimensions.
constexpr unsigned MaxComputeUnits = 16;

/// Moves the vendor attributes' annotations from llvm.global.annotations to each kernel's
/// VendorAttributesMetadata; other annotations stay.
void moveVendorAnnotationsToMetadata(llvm::Module &module);

/// Checks, after each kernel's declaration, what its attributes need of each other.
std::unique_ptr<clang::ASTConsumer> createKernelAttributeChecker(clang::DiagnosticsEngine &diagnostics);

/// Resolves each variable's banking attributes (numbanks, bankwidth, bank_bits, xcl_array_partition)
/// against its type into one `loom:bank_bits(...)` annotation (BankingAttributes.cpp).
std::unique_ptr<clang::ASTConsumer> createBankingResolver(clang::DiagnosticsEngine &diagnostics);

/// Clang's text diagnostics into `os`, which say why a vendor's statement attribute
/// (`xcl_pipeline_loop`, `xcl_pipeline_workitems`) is ignored where Clang 15 can only call it
/// unknown. The caller owns the result (Clang's createDiagnostics takes it).
clang::DiagnosticConsumer *createDiagnosticPrinter(llvm::raw_ostream &os, clang::DiagnosticOptions *options);

class LoopPragmaBindings;

/// Installs the vendors' loop pragmas (`ii`, `ivdep`, `max_interleaving`, `loop_coalesce`, ...) in
/// one compile's preprocessor; those no Clang loop hint carries are recorded in `bindings`. The
/// kernel and memory attributes are registered with Clang once per process, when this library is
/// loaded.
void addVendorPragmas(clang::Preprocessor &preprocessor, Target target, LoopPragmaBindings &bindings);

/// `source` with aoc's `__attribute__((opencl_unroll_hint(N)))` before a labelled loop moved onto
/// the loop (LabelledLoopHints.cpp).
std::string rewriteLabelledLoopHints(llvm::StringRef source);

/// `source` with the `keyword=` of Vitis's keyword-argument attributes (`xcl_dependence(type="inter",
/// ...)`) blanked, so that Clang parses them (KeywordAttributeArguments.cpp).
std::string rewriteKeywordAttributeArguments(llvm::StringRef source);

/// aoc's `__local` arrays in helper functions, each calling kernel's own (HelperLocalArrays.cpp):
/// the source rewrite, the prelude's declaration it calls, and the allocation in the compiled module.
std::string rewriteHelperLocalArrays(llvm::StringRef source);
llvm::StringRef helperLocalPrelude();
void allocateHelperLocalArrays(llvm::Module &module);

} // namespace loom::frontend

//===- OfflineCompiler.cpp - Source to .loom binary -----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "OfflineCompiler.h"

#include "loom/frontend/Binary.h"
#include "loom/frontend/KernelInfo.h"
#include "loom/frontend/OpenCLCompiler.h"
#include "loom/hls/Pipeline.h"
#include "loom/sim/ModelBuilder.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

namespace loom {
namespace {

llvm::Error withLog(const std::string &log, llvm::Error error) {
  std::string message = log + llvm::toString(std::move(error));
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

llvm::Expected<OfflineResult> compileOffline(const OfflineOptions &options, const board::Board &board) {
  OfflineResult result;
  llvm::LLVMContext context;
  frontend::SourceInput input{options.source, options.sourceName, options.buildOptions};
  const bool spirv = frontend::isSpirv(options.source);

  // Hardware path: spir64 IR -> HLS.
  std::unique_ptr<llvm::Module> hardware;
  if (spirv) {
    auto module = frontend::readSpirv(context, options.source);
    if (!module)
      return module.takeError();
    hardware = std::move(*module);
  } else {
    auto compiled = frontend::compileOpenCL(context, input, frontend::Target::Hardware);
    if (!compiled)
      return compiled.takeError();
    hardware = std::move(compiled->module);
    result.log += compiled->log;
  }
  auto kernels = frontend::extractKernels(*hardware);
  if (!kernels)
    return withLog(result.log, kernels.takeError());

  hls::HlsOptions hlsOptions;
  if (options.dump && !options.dumpAfter.empty())
    hlsOptions.dump = [&](llvm::StringRef pass, llvm::StringRef kernel, llvm::StringRef text) {
      if (options.dumpAfter == "all" || options.dumpAfter == pass)
        options.dump(pass, kernel, text);
    };
  auto synthesized = hls::synthesizeProgram(*hardware, board, hlsOptions);
  if (!synthesized)
    return withLog(result.log, synthesized.takeError());
  result.verilog = synthesized->verilog;
  result.report = synthesized->report;
  result.log += synthesized->report;

  sim::ModelBuilder modelBuilder;
  if (options.progress)
    modelBuilder.setProgress(options.progress);
  auto model = modelBuilder.build(synthesized->verilog, synthesized->kernels);
  if (!model)
    return withLog(result.log + modelBuilder.log(), model.takeError());

  // CPU path: the same source for the host triple (SPIR-V input carries no CPU code).
  std::string cpuBitcode;
  if (!spirv) {
    llvm::LLVMContext hostContext;
    auto host = frontend::compileOpenCL(hostContext, input, frontend::Target::Host);
    if (!host)
      return withLog(result.log, host.takeError());
    llvm::raw_string_ostream os(cpuBitcode);
    llvm::WriteBitcodeToFile(*host->module, os);
  }

  llvm::json::Array kernelEntries;
  for (size_t i = 0; i < kernels->size(); ++i) {
    llvm::json::Value entry = frontend::toJSON((*kernels)[i]);
    for (const auto &hw : synthesized->kernels)
      if (hw.kernelName == (*kernels)[i].name)
        entry.getAsObject()->try_emplace("hardware", hls::toJSON(hw));
    kernelEntries.push_back(std::move(entry));
  }
  frontend::ProgramBinary binary;
  binary.meta = llvm::json::Object{{"board", board.name},
                                   {"loom_version", LOOM_VERSION},
                                   {"source", options.sourceName},
                                   {"options", options.buildOptions},
                                   {"kernels", std::move(kernelEntries)}};
  if (!synthesized->printfCalls.empty())
    binary.meta["printf"] = llvm::json::Array(synthesized->printfCalls);
  binary.verilog = synthesized->verilog;
  binary.model = std::move(*model);
  binary.cpuBitcode = std::move(cpuBitcode);
  binary.log = result.log;
  result.binary = frontend::writeBinary(binary);
  return result;
}

} // namespace loom

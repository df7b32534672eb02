//===- OfflineCompiler.cpp - Source to .loom binary -----------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "OfflineCompiler.h"

#include "loom/frontend/Binary.h"
#include "loom/frontend/KernelInfo.h"
#include "loom/frontend/ObjectCode.h"
#include "loom/frontend/OpenCLCompiler.h"
#include "loom/frontend/Optimize.h"
#include "loom/hls/Pipeline.h"
#include "loom/sim/ModelBuilder.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

namespace loom {
namespace {

llvm::Error withLog(const std::string &log, llvm::Error error) {
  std::string message = log + llvm::toString(std::move(error));
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The hardware flow from a spir64 module on: synthesis, the simulation model, the .loom binary
/// with `hostBitcode` as its CPU code. `log` holds what the frontend said so far.
llvm::Expected<OfflineResult> synthesize(llvm::Module &hardware, std::string hostBitcode, std::string log,
                                         const OfflineOptions &options, const board::Board &board) {
  OfflineResult result;
  result.log = std::move(log);
  frontend::inlineDefinedFunctions(hardware);
  auto kernels = frontend::extractKernels(hardware);
  if (!kernels)
    return withLog(result.log, kernels.takeError());

  hls::HlsOptions hlsOptions;
  if (options.dump && !options.dumpAfter.empty())
    hlsOptions.dump = [&](llvm::StringRef pass, llvm::StringRef kernel, llvm::StringRef text) {
      if (options.dumpAfter == "all" || options.dumpAfter == pass)
        options.dump(pass, kernel, text);
    };
  auto synthesized = hls::synthesizeProgram(hardware, board, hlsOptions);
  if (!synthesized)
    return withLog(result.log, synthesized.takeError());
  result.verilog = synthesized->verilog;
  result.report = synthesized->report;
  result.warnings = result.log + synthesized->warnings;
  result.log += synthesized->warnings + synthesized->report;
  if (options.rtlOnly)
    return result;

  // A program without kernels has no hardware to simulate: its binary carries no model.
  std::string model;
  if (!synthesized->kernels.empty()) {
    sim::ModelBuilder modelBuilder;
    if (options.progress)
      modelBuilder.setProgress(options.progress);
    modelBuilder.setKeepTemporaries(options.saveTemps);
    modelBuilder.setPrecompiledHeaderDirectory(options.precompiledHeaderDirectory);
    auto built = modelBuilder.build(synthesized->verilog, synthesized->kernels);
    if (!built)
      return withLog(result.log + modelBuilder.log(), built.takeError());
    model = std::move(*built);
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
  binary.model = std::move(model);
  binary.cpuBitcode = std::move(hostBitcode);
  binary.log = result.log;
  result.binary = frontend::writeBinary(binary);
  return result;
}

} // namespace

llvm::Expected<OfflineResult> compileOffline(const OfflineOptions &options, const board::Board &board) {
  llvm::LLVMContext context;
  if (frontend::isSpirv(options.source)) {
    // SPIR-V input carries no CPU code.
    auto module = frontend::readSpirv(context, options.source);
    if (!module)
      return module.takeError();
    return synthesize(**module, "", "", options, board);
  }
  auto object = compileObject(options, board);
  if (!object)
    return object.takeError();
  auto hardware = frontend::linkUnits(context, {object->hardwareBitcode}, frontend::LinkResult::Executable);
  if (!hardware)
    return withLog(object->log, hardware.takeError());
  return synthesize(**hardware, std::move(object->hostBitcode), object->log, options, board);
}

llvm::Expected<frontend::ObjectCode> compileObject(const OfflineOptions &options, const board::Board &board) {
  frontend::ObjectCode object;
  object.board = board.name;
  object.options = options.buildOptions;
  frontend::SourceInput input{options.source, options.sourceName, options.buildOptions, options.headers};
  for (auto [target, bitcode] : {std::pair{frontend::Target::Hardware, &object.hardwareBitcode},
                                 std::pair{frontend::Target::Host, &object.hostBitcode}}) {
    llvm::LLVMContext context;
    auto compiled = frontend::compileOpenCL(context, input, target);
    if (!compiled)
      return withLog(object.log, compiled.takeError());
    // Both targets warn alike: keep one copy.
    if (target == frontend::Target::Hardware)
      object.log += compiled->log;
    *bitcode = frontend::bitcodeOf(*compiled->module);
  }
  return object;
}

llvm::Expected<OfflineResult> linkOffline(llvm::ArrayRef<frontend::ObjectCode> objects,
                                          const OfflineOptions &options, const board::Board &board) {
  std::vector<llvm::StringRef> hardwareUnits, hostUnits;
  for (const frontend::ObjectCode &object : objects) {
    if (llvm::Error error = frontend::checkObjectFor(object, board.name))
      return std::move(error);
    hardwareUnits.push_back(object.hardwareBitcode);
    hostUnits.push_back(object.hostBitcode);
  }
  llvm::LLVMContext context;
  auto hardware = frontend::linkUnits(context, hardwareUnits, frontend::LinkResult::Executable);
  if (!hardware)
    return hardware.takeError();
  llvm::LLVMContext hostContext;
  auto host = frontend::linkUnits(hostContext, hostUnits, frontend::LinkResult::Executable);
  if (!host)
    return host.takeError();
  return synthesize(**hardware, frontend::bitcodeOf(**host), "", options, board);
}

} // namespace loom

//===- loomc.cpp - The Loom offline compiler ------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// loomc kernel.cl -o kernel.loom [--board NAME] [--rtl]: flags, one call into compileOffline, the outputs.
//===----------------------------------------------------------------------===//
#include "OfflineCompiler.h"

#include "loom/hls/Pipeline.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace cl = llvm::cl;

static cl::OptionCategory LoomcCategory("loomc options");
static cl::opt<std::string> Input(cl::Positional, cl::desc("<kernel.cl | kernel.spv>"), cl::cat(LoomcCategory));
static cl::opt<std::string> Output("o", cl::desc("Output binary (default: <input>.loom; <input>.v with --rtl)"),
                                   cl::value_desc("file"), cl::cat(LoomcCategory));
static cl::opt<std::string> BoardName("board", cl::desc("Target board (see --list-boards)"),
                                      cl::init("default"), cl::cat(LoomcCategory));
static cl::opt<bool> ListBoards("list-boards", cl::desc("List the known boards and exit"), cl::cat(LoomcCategory));
static cl::list<std::string> Defines("D", cl::Prefix, cl::desc("Define a preprocessor macro"),
                                     cl::value_desc("name[=value]"), cl::cat(LoomcCategory));
static cl::list<std::string> Includes("I", cl::Prefix, cl::desc("Add an include directory"),
                                      cl::value_desc("dir"), cl::cat(LoomcCategory));
static cl::opt<std::string> BuildOptions("options", cl::desc("Further OpenCL build options, e.g. -cl-std=CL2.0"),
                                         cl::cat(LoomcCategory));
static cl::opt<std::string> EmitVerilog("emit-verilog", cl::desc("Also write the generated Verilog here"),
                                        cl::value_desc("file"), cl::cat(LoomcCategory));
static cl::opt<std::string> DumpAfter("dump-after",
                                      cl::desc("Print the dataflow graph after a hardware pass ('all' for every pass; 'prepared-ir': the LLVM IR the graph is built from)"),
                                      cl::value_desc("pass"), cl::cat(LoomcCategory));
static cl::opt<bool> Report("report", cl::desc("Print the hardware report (II, depth, ports, area)"),
                            cl::cat(LoomcCategory));
static cl::opt<bool> SaveTemps("save-temps",
                               cl::desc("Keep the simulation model's build directory and print its path"),
                               cl::cat(LoomcCategory));
static cl::opt<std::string> PchDir("pch-dir",
                                   cl::desc("Keep verilated.h precompiled here for the simulation model's C++, "
                                            "for later builds to reuse (about 1 s of CPU a kernel)"),
                                   cl::value_desc("dir"), cl::cat(LoomcCategory));
static cl::opt<bool> Rtl("rtl",
                         cl::desc("Stop after the Verilog and the report: write the Verilog, build no "
                                  "simulation model (seconds instead of minutes)"),
                         cl::cat(LoomcCategory));
static cl::opt<bool> Quiet("q", cl::desc("Print nothing but errors"), cl::cat(LoomcCategory));

static int listBoards() {
  for (const auto &board : loom::board::listBoards())
    llvm::outs() << llvm::format("%-10s %6.0f MHz  %2u bank(s), %5.1f GB/s, %3u-cycle latency  %s\n",
                                 board.name.c_str(), board.clockMHz, board.memory.banks,
                                 board.memory.bandwidthGBps, board.memory.latencyCycles,
                                 board.description.c_str());
  return 0;
}

static bool writeFile(llvm::StringRef path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (!ec) {
    os << bytes;
    os.close();
    ec = os.error();
  }
  if (ec) {
    llvm::WithColor::error(llvm::errs(), "loomc") << "cannot write " << path << ": " << ec.message() << "\n";
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(LoomcCategory);
  std::string passes;
  for (const auto &name : loom::hls::passNames())
    passes += " " + name;
  cl::ParseCommandLineOptions(argc, argv, "Loom offline compiler: OpenCL C to a simulated-FPGA binary\n\n"
                                          "  hardware passes:" + passes + "\n");
  if (ListBoards)
    return listBoards();
  if (Input.empty()) {
    llvm::WithColor::error(llvm::errs(), "loomc") << "no input file (try --help)\n";
    return 1;
  }
  auto board = loom::board::loadBoard(BoardName);
  if (!board) {
    llvm::WithColor::error(llvm::errs(), "loomc") << llvm::toString(board.takeError()) << "\n";
    return 1;
  }
  auto source = llvm::MemoryBuffer::getFile(Input, /*IsText=*/false);
  if (!source) {
    llvm::WithColor::error(llvm::errs(), "loomc") << "cannot read " << Input << ": "
                                                  << source.getError().message() << "\n";
    return 1;
  }

  loom::OfflineOptions options;
  options.sourceName = Input;
  options.source = (*source)->getBuffer().str();
  for (const auto &d : Defines)
    options.buildOptions += " -D" + d;
  for (const auto &i : Includes)
    options.buildOptions += " -I" + i;
  options.buildOptions += " " + BuildOptions;
  auto started = std::chrono::steady_clock::now();
  options.progress = [&](llvm::StringRef step) {
    if (!Quiet)
      llvm::errs() << llvm::format("loomc: [%5.1fs] ", std::chrono::duration<double>(
                                                           std::chrono::steady_clock::now() - started)
                                                           .count())
                   << step << "\n";
  };
  options.dumpAfter = DumpAfter;
  options.saveTemps = SaveTemps;
  options.precompiledHeaderDirectory = PchDir;
  options.rtlOnly = Rtl;
  options.dump = [](llvm::StringRef pass, llvm::StringRef kernel, llvm::StringRef text) {
    // Flushed at once, so a dump survives a later failure.
    llvm::outs() << "// ----- after " << pass << " (" << kernel << ")\n" << text;
    llvm::outs().flush();
  };

  auto result = loom::compileOffline(options, *board);
  if (!result) {
    const std::string message = llvm::toString(result.takeError());
    llvm::errs() << message << (llvm::StringRef(message).endswith("\n") ? "" : "\n") << "loomc: compilation failed\n";
    return 1;
  }
  if (!Quiet)
    llvm::errs() << result->warnings;
  std::string output = Output;
  if (output.empty()) {
    llvm::SmallString<128> path(Input.getValue());
    llvm::sys::path::replace_extension(path, Rtl ? "v" : "loom");
    output = path.str().str();
  }
  if (!writeFile(output, Rtl ? result->verilog : result->binary) ||
      (!EmitVerilog.empty() && !writeFile(EmitVerilog, result->verilog)))
    return 1;
  if (Report)
    llvm::outs() << result->report;
  options.progress("wrote " + output + " for board '" + board->name + "'");
  return 0;
}

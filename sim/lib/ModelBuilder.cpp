//===- ModelBuilder.cpp - Verilate and compile a program's model -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// Steps, all in one temporary directory: write program.v, and each of its modules to a file of its
// own in modules/; run verilator --cc once per kernel (k<i>/Vk<i>*.cpp); write per kernel two
// translation units, one that includes every Verilated .cpp of the per-cycle code plus that
// kernel's shim, one with the run-once code (Verilator's "__Slow" files: constructors, initial
// settling), compiled unoptimised as Verilator's own makefile does; write the dispatch shim;
// compile up to jobs_ at once (the kernels' units with verilated.h precompiled, when given a
// directory to keep it in); link with -shared. The model's symbols are hidden except the ABI
// functions.
//
// Verilator splits its functions at SplitFunctionStatements: left whole, one always-block network
// of a large kernel is a function of thousands of lines, and GCC's optimiser is superlinear in
// function size (a 33-kernel corpus took 17 minutes to compile, 10x what split functions take).
//
// Verilator reads a kernel's module from modules/ and finds the modules it instantiates there by
// name (-y): given the whole program, each run parsed every kernel's modules, so a program's
// Verilator time grew with the square of its kernels (a 15-kernel corpus: 6.6 s of parsing in each
// kernel's run, whose own modules verilate in 1 s). A `line directive keeps program.v's line numbers
// in Verilator's messages.
//===----------------------------------------------------------------------===//
#include "loom/sim/ModelBuilder.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <deque>

namespace loom::sim {
namespace {

struct EmbeddedFile {
  const char *name;
  const char *contents;
};
const EmbeddedFile EmbeddedAbi[] = {
#include "EmbeddedModelABI.inc"
};

/// Statements per Verilated function before Verilator splits it (see the file comment).
constexpr unsigned SplitFunctionStatements = 500;
/// The most write ports of an on-chip memory whose write loop Verilator unrolls.
constexpr unsigned MaxUnrolledWritePorts = 4096;

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// A tool given as an absolute path is used as is; a bare name is looked up on PATH. An environment
/// variable overrides the path baked in at configure time (relocated installs, other compilers).
llvm::Expected<std::string> findTool(const char *envName, llvm::StringRef baked,
                                     llvm::StringRef what) {
  std::string path = baked.str();
  if (auto env = llvm::sys::Process::GetEnv(envName))
    path = *env;
  if (!llvm::sys::path::is_absolute(path)) {
    auto found = llvm::sys::findProgramByName(path);
    if (!found)
      return error(llvm::formatv("cannot find the {0} '{1}' on PATH (set {2} to its path)", what,
                                 path, envName));
    path = *found;
  }
  if (!llvm::sys::fs::can_execute(path))
    return error(llvm::formatv("the {0} '{1}' is missing or not executable (set {2} to its path)",
                               what, path, envName));
  return path;
}

llvm::Error writeFile(llvm::StringRef path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec)
    return error(llvm::formatv("cannot write {0}: {1}", path, ec.message()));
  out << contents;
  out.close();
  if (out.has_error())
    return error(llvm::formatv("cannot write {0}: {1}", path, out.error().message()));
  return llvm::Error::success();
}

/// The compiler directives whose effect reaches past the module they are in (a macro's use, also a
/// line starting with a backquote, is not one).
bool isCarriedDirective(llvm::StringRef line) {
  llvm::StringRef word = line.ltrim().take_until([](char c) { return c == ' ' || c == '\t'; });
  static const llvm::StringRef Carried[] = {"`define",    "`undef",           "`undefineall",
                                            "`timescale", "`default_nettype", "`resetall"};
  return llvm::is_contained(Carried, word);
}

/// Writes each module of `verilog` to `dir`/<name>.v, starting with the compiler directives
/// (`define, `timescale, ...) of the lines before it, which Verilator would have seen in program.v,
/// and a `line directive giving its first line there. The generated Verilog puts `module` and
/// `endmodule` at the start of a line; the text between two modules (comments, lint pragmas) goes
/// with the module after it.
llvm::Error writeModuleLibrary(llvm::StringRef verilog, llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directory(dir))
    return error(llvm::formatv("cannot create {0}: {1}", dir, ec.message()));
  std::string directives, module, name;
  size_t directivesBefore = 0; // the length of `directives` where the module's text began
  unsigned firstLine = 1, lineNumber = 0;
  bool inDirective = false; // a directive continues while its lines end in a backslash
  for (llvm::StringRef rest = verilog; !rest.empty();) {
    llvm::StringRef line;
    std::tie(line, rest) = rest.split('\n');
    ++lineNumber;
    if (module.empty()) {
      firstLine = lineNumber;
      directivesBefore = directives.size();
    }
    module += line;
    module += '\n';
    if (inDirective || isCarriedDirective(line)) {
      directives += line;
      directives += '\n';
      inDirective = line.rtrim().endswith("\\");
    }
    if (name.empty() && line.consume_front("module "))
      name = line.ltrim().take_until([](char c) { return !llvm::isAlnum(c) && c != '_'; }).str();
    if (!name.empty() && line.startswith("endmodule")) {
      llvm::SmallString<128> path(dir);
      llvm::sys::path::append(path, name + ".v");
      std::string text = directives.substr(0, directivesBefore) +
                         llvm::formatv("`line {0} \"program.v\" 0\n", firstLine).str() + module;
      if (auto err = writeFile(path, text))
        return err;
      module.clear();
      name.clear();
    }
  }
  if (!name.empty())
    return error(llvm::formatv("module {0} in program.v has no endmodule", name));
  return llvm::Error::success();
}

std::string readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

std::string quoteForLog(llvm::ArrayRef<std::string> argv) {
  std::string line;
  for (const auto &arg : argv) {
    if (!line.empty())
      line += ' ';
    line += arg;
  }
  return line;
}

/// A C string literal for `text` (kernel names are identifiers, but nothing relies on that).
std::string cString(llvm::StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += llvm::formatv("\\{0:o3}", static_cast<unsigned>(static_cast<unsigned char>(c))).str();
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// One external command whose stdout and stderr go to a file, appended to the log when it ends.
struct Job {
  std::vector<std::string> argv;
  std::string outputPath;
  std::string what; ///< For the error message: "verilator (kernel 'add')", "c++ (k0.cpp)".
  llvm::sys::ProcessInfo process;
};

class Runner {
public:
  Runner(std::string &log, unsigned jobs) : log_(log), jobs_(jobs) {}

  /// Runs every job, at most jobs_ at once; the first failure is the error (after all finished, so
  /// no child outlives the build).
  llvm::Error runAll(std::vector<Job> jobs) {
    std::deque<Job *> pending, running;
    for (auto &job : jobs)
      pending.push_back(&job);
    llvm::Error firstError = llvm::Error::success();
    while (!pending.empty() || !running.empty()) {
      while (!pending.empty() && running.size() < jobs_) {
        Job *job = pending.front();
        pending.pop_front();
        if (llvm::Error err = startJob(*job)) {
          if (!firstError)
            firstError = std::move(err);
          else
            llvm::consumeError(std::move(err));
          pending.clear();
          continue;
        }
        running.push_back(job);
      }
      if (running.empty())
        break;
      Job *job = running.front();
      running.pop_front();
      if (llvm::Error err = finishJob(*job)) {
        pending.clear(); // let the running ones end, start nothing new
        if (!firstError)
          firstError = std::move(err);
        else
          llvm::consumeError(std::move(err));
      }
    }
    return firstError;
  }

private:
  llvm::Error startJob(Job &job) {
    std::vector<llvm::StringRef> args(job.argv.begin(), job.argv.end());
    llvm::Optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                   llvm::StringRef(job.outputPath),
                                                   llvm::StringRef(job.outputPath)};
    log_ += "$ " + quoteForLog(job.argv) + "\n";
    std::string message;
    bool failed = false;
    job.process = llvm::sys::ExecuteNoWait(job.argv[0], args, llvm::None, redirects, 0, &message,
                                           &failed);
    if (failed || job.process.Pid == llvm::sys::ProcessInfo::InvalidPid)
      return error(llvm::formatv("cannot run {0}: {1}", job.what, message));
    return llvm::Error::success();
  }

  llvm::Error finishJob(Job &job) {
    std::string message;
    llvm::sys::ProcessInfo result =
        llvm::sys::Wait(job.process, 0, /*WaitUntilTerminates=*/true, &message);
    std::string output = readFile(job.outputPath);
    log_ += output;
    if (result.ReturnCode != 0) {
      std::string reason = result.ReturnCode < 0 ? " (" + message + ")" : "";
      return error(llvm::formatv("{0} failed with exit code {1}{2}:\n{3}", job.what,
                                 result.ReturnCode, reason, output));
    }
    return llvm::Error::success();
  }

  std::string &log_;
  unsigned jobs_;
};

/// A file's identity for a cache key: its path, size and modification time.
std::string identityOf(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return path.str();
  return llvm::formatv("{0} {1} {2}", path, status.getSize(),
                       status.getLastModificationTime().time_since_epoch().count());
}

/// A header to -include for verilated.h precompiled for units compiled by `cxx` with `flags` (its
/// .gch lies beside it), kept in `directory` under a hash of the compiler, the header and the
/// flags, and built there when absent (into a temporary file renamed, so that builds in other
/// processes may share it). Parsing verilated.h is about 0.5 s of CPU in every unit, a quarter of a
/// one-kernel model's C++; the compiler falls back to the header if it finds the .gch unusable.
llvm::Expected<std::string> precompiledVerilatedHeader(const std::string &cxx, llvm::ArrayRef<std::string> flags,
                                                       llvm::StringRef includeDir, llvm::StringRef directory,
                                                       Runner &runner) {
  llvm::SHA256 hash;
  for (const std::string &part : {identityOf(cxx), identityOf((includeDir + "/verilated.h").str()),
                                  quoteForLog(flags)})
    hash.update(std::to_string(part.size()) + ":" + part);
  llvm::SmallString<256> header(directory);
  llvm::sys::path::append(header, "verilated-" + llvm::toHex(hash.final(), /*LowerCase=*/true).substr(0, 24) + ".h");
  const std::string precompiled = (header.str() + ".gch").str();
  if (llvm::sys::fs::exists(precompiled))
    return header.str().str();
  if (std::error_code ec = llvm::sys::fs::create_directories(directory))
    return error(llvm::formatv("cannot create {0}: {1}", directory, ec.message()));
  // Each file is written under a unique name and renamed into place whole.
  auto unique = [&](llvm::StringRef path) -> llvm::Expected<std::string> {
    int fd;
    llvm::SmallString<256> temporary;
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(path + ".%%%%%%%%.tmp", fd, temporary))
      return error(llvm::formatv("cannot create a file beside {0}: {1}", path, ec.message()));
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
    return temporary.str().str();
  };
  auto temporaryHeader = unique(header);
  if (!temporaryHeader)
    return temporaryHeader.takeError();
  if (auto err = writeFile(*temporaryHeader, "#include \"verilated.h\"\n"))
    return std::move(err);
  if (std::error_code ec = llvm::sys::fs::rename(*temporaryHeader, header))
    return error(llvm::formatv("cannot write {0}: {1}", header, ec.message()));
  auto temporaryPrecompiled = unique(precompiled);
  if (!temporaryPrecompiled)
    return temporaryPrecompiled.takeError();
  Job job;
  job.argv = {cxx};
  job.argv.insert(job.argv.end(), flags.begin(), flags.end());
  job.argv.insert(job.argv.end(), {"-x", "c++-header", header.str().str(), "-o", *temporaryPrecompiled});
  job.outputPath = *temporaryPrecompiled + ".log";
  job.what = "the C++ compiler (precompiled verilated.h)";
  std::vector<Job> one;
  one.push_back(std::move(job));
  llvm::Error built = runner.runAll(std::move(one));
  llvm::sys::fs::remove(*temporaryPrecompiled + ".log");
  if (!built)
    built = llvm::errorCodeToError(llvm::sys::fs::rename(*temporaryPrecompiled, precompiled));
  if (built) {
    llvm::sys::fs::remove(*temporaryPrecompiled);
    return std::move(built);
  }
  return header.str().str();
}

/// Removes the temporary directory unless asked to keep it.
struct TempDir {
  llvm::SmallString<128> path;
  bool keep = false;
  ~TempDir() {
    if (!path.empty() && !keep)
      llvm::sys::fs::remove_directories(path);
  }
};

/// A statement copying a port's data between the Verilated signal `signal` and the LoomPort words
/// `words`: a plain assignment up to 64 bits, the bytes of the VlWide (32-bit words, little-endian
/// like the port's) above.
std::string copyData(unsigned bytes, const std::string &signal, const std::string &words, bool toModel) {
  if (bytes <= 8)
    return toModel ? "  " + signal + " = " + words + "[0];\n" : "  " + words + "[0] = " + signal + ";\n";
  return toModel ? llvm::formatv("  std::memcpy({0}.data(), {1}, {2});\n", signal, words, bytes).str()
                 : llvm::formatv("  std::memcpy({1}, {0}.data(), {2});\n", signal, words, bytes).str();
}

/// A statement setting the Verilated signal `signal` of `bytes` bytes to 0.
std::string zeroData(unsigned bytes, const std::string &signal) {
  return bytes > 8 ? llvm::formatv("  std::memset({0}.data(), 0, {1});\n", signal, bytes).str()
                   : "  " + signal + " = 0;\n";
}

/// The statements setting the inputs of pipe port `s`'s signal groups from `streams[s]` (with
/// `fromStreams`), or to 0 (without: before the first evaluation).
std::string pipeInputs(const hls::PipePort &pipe, unsigned s, bool fromStreams) {
  std::string out;
  auto set = [&](const char *signal, const char *field) {
    out += llvm::formatv("  t.s{0}_{1} = ", s, signal).str() +
           (fromStreams ? llvm::formatv("streams[{0}].{1};\n", s, field).str() : std::string("0;\n"));
  };
  if (pipe.transfers) {
    set(pipe.writes ? "ready" : "valid", "available");
    if (!pipe.writes) {
      const std::string data = llvm::formatv("t.s{0}_data", s).str();
      out += fromStreams ? copyData(pipe.packetBytes, data, llvm::formatv("streams[{0}].in_data", s).str(),
                                    /*toModel=*/true)
                         : zeroData(pipe.packetBytes, data);
    }
  }
  if (pipe.reserves) {
    set("reservable", "reservable");
    set("reserve_base", "reserve_base");
  }
  if (pipe.queries) {
    set("packets", "packets");
    set("capacity", "capacity");
  }
  // A read pipe's slot data is set after the first evaluation of a cycle that asks for it.
  if (pipe.slots && !pipe.writes && !fromStreams)
    out += zeroData(pipe.packetBytes, llvm::formatv("t.s{0}_slot_rdata", s).str());
  return out;
}

/// The statements reporting pipe port `s`'s operations in streams[s], after the clock-low
/// evaluation; the outputs of absent signal groups are 0.
std::string pipeOutputs(const hls::PipePort &pipe, unsigned s) {
  std::string out;
  auto report = [&](bool present, const char *field, const std::string &value) {
    out += llvm::formatv("  streams[{0}].{1} = {2};\n", s, field, present ? value : "0").str();
  };
  auto signal = [&](const char *name) { return llvm::formatv("t.s{0}_{1}", s, name).str(); };
  auto fires = [&](const char *name) { return "(" + signal(name) + " ? 1 : 0)"; };
  report(pipe.transfers, "fire",
         llvm::formatv("({0} && streams[{1}].available) ? 1 : 0", signal(pipe.writes ? "push" : "pop"), s));
  if (pipe.transfers && pipe.writes)
    out += copyData(pipe.packetBytes, signal("data"), llvm::formatv("streams[{0}].out_data", s).str(),
                    /*toModel=*/false);
  report(pipe.reserves, "reserve_fire", fires("reserve"));
  report(pipe.reserves, "reserve_count", signal("reserve_count"));
  const bool slotWrites = pipe.slots && pipe.writes;
  report(slotWrites, "slot_fire", fires("slot_en"));
  report(slotWrites, "slot", signal("slot"));
  if (slotWrites)
    out += copyData(pipe.packetBytes, signal("slot_wdata"), llvm::formatv("streams[{0}].slot_data", s).str(),
                    /*toModel=*/false);
  report(pipe.commits, "commit_fire", fires("commit"));
  report(pipe.commits, "commit_base", signal("commit_base"));
  return out;
}

} // namespace

std::string ModelBuilder::generateKernelShim(const hls::HardwareKernel &kernel, unsigned index) {
  std::string s;
  llvm::raw_string_ostream os(s);
  std::string cls = llvm::formatv("Vk{0}", index).str();
  os << "// Generated by loom::sim::ModelBuilder for kernel '" << kernel.kernelName << "' (module "
     << kernel.topModule << ").\n";
  os << "#include \"" << cls << ".h\"\n#include \"verilated.h\"\n#include \"ModelABI.h\"\n"
     << "#include <cstring>\n\n";
  os << "namespace {\nstruct Instance" << index << " {\n"
     << "  VerilatedContext context;\n"
     << "  " << cls << " top{&context, \"k" << index << "\"};\n};\n}\n\n";

  // Inputs that must be defined before the first evaluation.
  std::string idle;
  for (unsigned p = 0; p < kernel.ports.size(); ++p) {
    idle += llvm::formatv("  t.m{0}_req_ready = 0;\n  t.m{0}_resp_valid = 0;\n", p).str();
    if (kernel.ports[p].readsData())
      idle += zeroData(kernel.ports[p].bytes, llvm::formatv("t.m{0}_resp_rdata", p).str());
  }
  for (unsigned i = 0; i < kernel.pipePorts.size(); ++i)
    idle += pipeInputs(kernel.pipePorts[i], i, /*fromStreams=*/false);

  os << "void *loom_k" << index << "_create() {\n"
     << "  auto *m = new Instance" << index << ";\n  auto &t = m->top;\n"
     << "  t.clk = 0;\n  t.rst = 1;\n  t.start = 0;\n" << idle;

  for (unsigned a = 0; a < kernel.numArgs; ++a)
    os << zeroData(kernel.argBytes(a), "t.arg_" + std::to_string(a));
  for (unsigned d = 0; d < 3; ++d)
    os << "  t.global_offset_" << d << " = 0;\n  t.global_size_" << d << " = 1;\n";
  // Synchronous reset: a few edges with rst high put every register in its reset state.
  os << "  for (int i = 0; i < 4; ++i) {\n    t.clk = 0;\n    t.eval();\n    t.clk = 1;\n"
     << "    t.eval();\n  }\n  t.rst = 0;\n  t.clk = 0;\n  t.eval();\n  return m;\n}\n\n";

  os << "void loom_k" << index << "_destroy(void *model) {\n"
     << "  auto *m = static_cast<Instance" << index << " *>(model);\n  m->top.final();\n"
     << "  delete m;\n}\n\n";

  os << "void loom_k" << index
     << "_start(void *model, const uint64_t *args, const uint64_t offset[3], const uint64_t "
        "size[3]) {\n"
     << "  auto &t = static_cast<Instance" << index << " *>(model)->top;\n";
  // A wide argument takes several words of args.
  for (unsigned a = 0, word = 0; a < kernel.numArgs; word += kernel.argBytes(a++) / 8)
    os << copyData(kernel.argBytes(a), "t.arg_" + std::to_string(a), llvm::formatv("(args + {0})", word).str(),
                   /*toModel=*/true);
  for (unsigned d = 0; d < 3; ++d)
    os << "  t.global_offset_" << d << " = offset[" << d << "];\n  t.global_size_" << d
       << " = size[" << d << "];\n";
  // start is sampled at the next cycle's edge, then lowered: a one-cycle pulse.
  os << "  t.start = 1;\n}\n\n";

  os << "int loom_k" << index << "_cycle(void *model, LoomPort *ports, LoomStream *streams) {\n"
     << "  auto &t = static_cast<Instance" << index << " *>(model)->top;\n";
  for (unsigned p = 0; p < kernel.ports.size(); ++p) {
    os << llvm::formatv("  t.m{0}_req_ready = ports[{0}].req_ready;\n"
                        "  t.m{0}_resp_valid = ports[{0}].resp_valid;\n",
                        p);
    if (kernel.ports[p].readsData())
      os << copyData(kernel.ports[p].bytes, llvm::formatv("t.m{0}_resp_rdata", p).str(),
                     llvm::formatv("ports[{0}].resp_rdata", p).str(), /*toModel=*/true);
  }
  for (unsigned i = 0; i < kernel.pipePorts.size(); ++i)
    os << pipeInputs(kernel.pipePorts[i], i, /*fromStreams=*/true);
  // Settle the combinational logic with the new inputs (clock low). A read pipe's slot read is the
  // FIFO RAM's asynchronous port: the packet at the slot asked for, then settle again.
  os << "  t.clk = 0;\n  t.eval();\n";
  // The slot buffer fits the largest packet read; zeroed, as a packet under 8 bytes fills part of a word.
  unsigned slotWords = 0;
  for (const hls::PipePort &pipe : kernel.pipePorts)
    if (pipe.slots && !pipe.writes)
      slotWords = std::max(slotWords, (pipe.packetBytes + 7) / 8);
  const bool slotReads = slotWords != 0;
  if (slotReads)
    os << llvm::formatv("  bool slotRead = false;\n  uint64_t slotPacket[{0}] = {{};\n", slotWords);
  for (unsigned i = 0; i < kernel.pipePorts.size(); ++i) {
    const hls::PipePort &pipe = kernel.pipePorts[i];
    if (!pipe.slots || pipe.writes)
      continue;
    os << llvm::formatv("  if (t.s{0}_slot_en) {{\n"
                        "    streams[{0}].read_slot(streams[{0}].fifo, t.s{0}_slot, slotPacket);\n"
                        "  ",
                        i)
       << copyData(pipe.packetBytes, llvm::formatv("t.s{0}_slot_rdata", i).str(), "slotPacket", /*toModel=*/true)
       << "    slotRead = true;\n  }\n";
  }
  if (slotReads)
    os << "  if (slotRead)\n    t.eval();\n";
  // Sample the handshakes, then the rising edge.
  for (unsigned i = 0; i < kernel.pipePorts.size(); ++i)
    os << pipeOutputs(kernel.pipePorts[i], i);
  for (unsigned p = 0; p < kernel.ports.size(); ++p) {
    os << llvm::formatv("  ports[{0}].req_fire = (t.m{0}_req_valid && ports[{0}].req_ready) ? 1 : 0;\n"
                        "  ports[{0}].req_addr = t.m{0}_req_addr;\n",
                        p);
    if (kernel.ports[p].writesData())
      os << copyData(kernel.ports[p].bytes, llvm::formatv("t.m{0}_req_wdata", p).str(),
                     llvm::formatv("ports[{0}].req_wdata", p).str(), /*toModel=*/false);
    if (kernel.ports[p].comparesData())
      os << llvm::formatv("  ports[{0}].req_cmp = t.m{0}_req_cmp;\n", p);
    if (kernel.ports[p].strobes())
      os << llvm::formatv("  ports[{0}].req_strobe = t.m{0}_req_strobe;\n", p);
  }
  // retired is sampled before the edge, as the handshakes are; done after it.
  os << "  const int retired = t.retired ? LOOM_CYCLE_RETIRED : 0;\n"
        "  t.clk = 1;\n  t.eval();\n  t.start = 0;\n  return (t.done ? LOOM_CYCLE_DONE : 0) | retired;\n}\n";
  os.flush();
  return s;
}

std::string ModelBuilder::generateDispatchShim(llvm::ArrayRef<hls::HardwareKernel> kernels) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "// Generated by loom::sim::ModelBuilder: the exported ModelABI.h functions.\n"
     << "#include \"ModelABI.h\"\n#include <new>\n\n";
  for (unsigned i = 0; i < kernels.size(); ++i)
    os << "void *loom_k" << i << "_create();\nvoid loom_k" << i << "_destroy(void *);\n"
       << "void loom_k" << i
       << "_start(void *, const uint64_t *, const uint64_t[3], const uint64_t[3]);\n"
       << "int loom_k" << i << "_cycle(void *, LoomPort *, LoomStream *);\n";
  os << "\nnamespace {\nstruct KernelEntry {\n  const char *name;\n  void *(*create)();\n"
     << "  void (*destroy)(void *);\n"
     << "  void (*start)(void *, const uint64_t *, const uint64_t[3], const uint64_t[3]);\n"
     << "  int (*cycle)(void *, LoomPort *, LoomStream *);\n};\n"
     << "// A model handle remembers its kernel's entry, so destroy/start/cycle need no index.\n"
     << "struct Handle {\n  const KernelEntry *entry;\n  void *instance;\n};\n"
     << "const KernelEntry Kernels[] = {\n";
  for (unsigned i = 0; i < kernels.size(); ++i)
    os << "  {" << cString(kernels[i].kernelName) << ", loom_k" << i << "_create, loom_k" << i
       << "_destroy, loom_k" << i << "_start, loom_k" << i << "_cycle},\n";
  if (kernels.empty())
    os << "  {nullptr, nullptr, nullptr, nullptr, nullptr},\n";
  os << "};\nconst uint32_t KernelCount = " << kernels.size() << ";\n}\n\n";
  os << R"(#define LOOM_EXPORT extern "C" __attribute__((visibility("default")))
LOOM_EXPORT uint32_t loom_model_abi_version(void) { return LOOM_MODEL_ABI_VERSION; }
LOOM_EXPORT uint32_t loom_model_kernel_count(void) { return KernelCount; }
LOOM_EXPORT const char *loom_model_kernel_name(uint32_t kernel) {
  return kernel < KernelCount ? Kernels[kernel].name : nullptr;
}
LOOM_EXPORT void *loom_model_create(uint32_t kernel) {
  if (kernel >= KernelCount)
    return nullptr;
  auto *handle = new (std::nothrow) Handle{&Kernels[kernel], nullptr};
  if (handle)
    handle->instance = Kernels[kernel].create();
  return handle;
}
LOOM_EXPORT void loom_model_destroy(void *model) {
  if (!model)
    return;
  auto *handle = static_cast<Handle *>(model);
  handle->entry->destroy(handle->instance);
  delete handle;
}
LOOM_EXPORT void loom_model_start(void *model, const uint64_t *args, const uint64_t offset[3],
                                  const uint64_t size[3]) {
  auto *handle = static_cast<Handle *>(model);
  handle->entry->start(handle->instance, args, offset, size);
}
LOOM_EXPORT int loom_model_cycle(void *model, LoomPort *ports, LoomStream *streams) {
  auto *handle = static_cast<Handle *>(model);
  return handle->entry->cycle(handle->instance, ports, streams);
}
)";
  os.flush();
  return s;
}

llvm::Expected<std::string> ModelBuilder::build(llvm::StringRef verilog,
                                                llvm::ArrayRef<hls::HardwareKernel> kernels) {
  log_.clear();
  auto verilator = findTool("LOOM_VERILATOR", LOOM_VERILATOR_EXECUTABLE, "Verilator executable");
  if (!verilator)
    return verilator.takeError();
  auto cxx = findTool("LOOM_HOST_CXX", LOOM_HOST_CXX, "host C++ compiler");
  if (!cxx)
    return cxx.takeError();
  std::string includeDir = LOOM_VERILATOR_INCLUDE_DIR;
  if (auto root = llvm::sys::Process::GetEnv("VERILATOR_ROOT"))
    includeDir = *root + "/include";

  TempDir dir;
  dir.keep = keep_;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("loom-model", dir.path))
    return error(llvm::formatv("cannot create a temporary directory: {0}", ec.message()));
  if (keep_)
    log_ += "model build directory: " + dir.path.str().str() + "\n";
  auto at = [&](const llvm::Twine &name) {
    llvm::SmallString<128> p(dir.path);
    llvm::sys::path::append(p, name);
    return p.str().str();
  };

  if (auto err = writeFile(at("program.v"), verilog))
    return std::move(err);
  if (auto err = writeModuleLibrary(verilog, at("modules")))
    return std::move(err);
  if (auto err = writeFile(at("ModelABI.h"), EmbeddedAbi[0].contents))
    return std::move(err);

  Runner runner(log_, jobs_);

  if (progress_)
    progress_("verilating");
  std::vector<Job> verilations;
  for (unsigned i = 0; i < kernels.size(); ++i) {
    Job job;
    job.argv = {*verilator, "--cc", "-O3", "--x-assign", "fast", "--x-initial", "fast",
                "--output-split-cfuncs", std::to_string(SplitFunctionStatements), "--noassert",
                "-Wno-fatal", "--top-module", kernels[i].topModule,
                // loom_ram's loop over its write ports must unroll: an unrolled loop filling a
                // private array gives it one per store, past Verilator's default of 64
                // (BLKLOOPINIT otherwise).
                "--unroll-count", std::to_string(MaxUnrolledWritePorts),
                "--prefix", llvm::formatv("Vk{0}", i).str(), "--Mdir", at(llvm::formatv("k{0}", i)),
                "-y", at("modules"), at("modules/" + kernels[i].topModule + ".v")};
    job.outputPath = at(llvm::formatv("verilator-k{0}.log", i));
    job.what = llvm::formatv("verilator (kernel '{0}', module '{1}')", kernels[i].kernelName,
                             kernels[i].topModule)
                   .str();
    verilations.push_back(std::move(job));
  }
  if (auto err = runner.runAll(std::move(verilations)))
    return std::move(err);

  // The flags a unit's code and the headers it includes see (those of a precompiled header).
  const std::vector<std::string> flags = {
      "-std=gnu++17", "-fPIC", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-fno-gnu-unique",
      "-faligned-new", "-fcf-protection=none", "-w", "-I" + includeDir, "-I" + includeDir + "/vltstd",
      "-DVM_COVERAGE=0", "-DVM_SC=0", "-DVM_TRACE=0", "-DVM_TRACE_FST=0", "-DVM_TRACE_VCD=0"};
  // Per optimisation level of the kernels' units, the header that includes verilated.h precompiled.
  llvm::StringMap<std::string> precompiled;
  if (!pchDirectory_.empty())
    for (llvm::StringRef optimisation : {"-O2", "-O0"}) {
      std::vector<std::string> levelFlags = flags;
      levelFlags.push_back(optimisation.str());
      auto include = precompiledVerilatedHeader(*cxx, levelFlags, includeDir, pchDirectory_, runner);
      if (include)
        precompiled[optimisation] = *include;
      else
        log_ += "loom: compiling without a precompiled verilated.h: " + llvm::toString(include.takeError()) + "\n";
    }
  std::vector<Job> compiles;
  std::vector<std::string> objects;
  auto compile = [&](const std::string &source, llvm::StringRef optimisation,
                     llvm::ArrayRef<std::string> includes, const std::string &what) {
    Job job;
    job.argv = {*cxx};
    job.argv.insert(job.argv.end(), flags.begin(), flags.end());
    job.argv.insert(job.argv.end(), {optimisation.str(), "-I" + dir.path.str().str(), "-c"});
    job.argv.insert(job.argv.end(), includes.begin(), includes.end());
    job.argv.push_back(source);
    job.argv.push_back("-o");
    job.argv.push_back(llvm::StringRef(source).drop_back(4).str() + ".o");
    objects.push_back(job.argv.back());
    job.outputPath = llvm::StringRef(source).drop_back(4).str() + ".log";
    job.what = what;
    compiles.push_back(std::move(job));
  };
  auto withPrecompiled = [&](llvm::StringRef optimisation, std::string include) {
    std::vector<std::string> includes = {std::move(include)};
    if (auto it = precompiled.find(optimisation); it != precompiled.end())
      includes.insert(includes.end(), {"-include", it->second});
    return includes;
  };
  for (unsigned i = 0; i < kernels.size(); ++i) {
    std::string mdir = at(llvm::formatv("k{0}", i));
    std::error_code ec;
    std::vector<std::string> sources;
    for (llvm::sys::fs::directory_iterator it(mdir, ec), end; it != end && !ec; it.increment(ec))
      if (llvm::StringRef(it->path()).endswith(".cpp"))
        sources.push_back(it->path());
    if (ec)
      return error(llvm::formatv("cannot list {0}: {1}", mdir, ec.message()));
    std::sort(sources.begin(), sources.end());
    std::string perCycle, runOnce;
    for (const auto &source : sources)
      (llvm::StringRef(source).endswith("__Slow.cpp") ? runOnce : perCycle) +=
          "#include \"" + source + "\"\n";
    perCycle += generateKernelShim(kernels[i], i);
    std::string perCyclePath = at(llvm::formatv("kernel{0}.cpp", i));
    std::string runOncePath = at(llvm::formatv("kernel{0}_once.cpp", i));
    if (auto err = writeFile(perCyclePath, perCycle))
      return std::move(err);
    if (auto err = writeFile(runOncePath, runOnce))
      return std::move(err);
    std::string what = llvm::formatv("the C++ compiler (kernel '{0}')", kernels[i].kernelName);
    compile(perCyclePath, "-O2", withPrecompiled("-O2", "-I" + mdir), what);
    compile(runOncePath, "-O0", withPrecompiled("-O0", "-I" + mdir), what + ", run-once code");
  }
  if (auto err = writeFile(at("dispatch.cpp"), generateDispatchShim(kernels)))
    return std::move(err);
  compile(at("dispatch.cpp"), "-O2", {}, "the C++ compiler (model dispatch shim)");
  if (progress_)
    progress_("compiling");
  if (auto err = runner.runAll(std::move(compiles)))
    return std::move(err);

  if (progress_)
    progress_("linking");
  std::string modelPath = at("model.so");
  Job link;
  link.argv = {*cxx, "-shared", "-fPIC", "-o", modelPath};
  link.argv.insert(link.argv.end(), objects.begin(), objects.end());
  link.outputPath = at("link.log");
  link.what = "the linker (model .so)";
  std::vector<Job> one;
  one.push_back(std::move(link));
  if (auto err = runner.runAll(std::move(one)))
    return std::move(err);

  auto buffer = llvm::MemoryBuffer::getFile(modelPath, false, false);
  if (!buffer)
    return error(llvm::formatv("cannot read the built model {0}: {1}", modelPath,
                               buffer.getError().message()));
  return (*buffer)->getBuffer().str();
}

} // namespace loom::sim

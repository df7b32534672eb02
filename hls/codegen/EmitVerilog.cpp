//===- EmitVerilog.cpp - Dataflow graph to the kernel's top module --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a scheduled, balanced KernelGraph. After: one Verilog module with the ports of
// HardwareKernel.h. Static nodes become wires over the argument and NDRange ports; each dynamic node
// becomes a join of its operand channels, its operator (a combinational expression followed by a
// loom_pipe of the board's latency, or a library unit: loom_fadd, loom_load, ...), and an eager
// loom_fork when several nodes consume its value. Loops' LoopControl, LoopMux and Steer nodes are
// loom_loop_control and small multiplexers. Every channel is valid/ready.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <set>
#include <optional>

namespace loom::hls {
namespace {

using namespace verilog;

/// Cycles without a store after which a line store port writes its partial line: long enough to
/// bridge a pipeline's stall, short enough that a waiting token is not held up for long.
constexpr int64_t StoreLineIdleCycles = 4;

/// A valid/ready channel: the consumer reads `valid` and drives `ready`.
struct Channel {
  ExprRef valid, ready;
};

class Emitter {
public:
  Emitter(const KernelGraph &kernel, const std::string &top) : k_(kernel), g_(kernel.graph), m_(top) {}

  Module emit() {
    declarePorts();
    declareMemories();
    const auto order = k_.topologicalOrder();
    for (NodeId id : order)
      if (g_[id].isStatic)
        emitStatic(id);
    // Every channel is declared before any node uses it: loops' rings use channels made later.
    for (NodeId id : order)
      if (!g_[id].isStatic && g_[id].kind != OpKind::Completion && g_[id].kind != OpKind::StoreAddress)
        declareOutput(id);
    declareForwardQueues();
    declarePipeArbiters();
    for (NodeId id : order)
      if (!g_[id].isStatic)
        emitDynamic(id);
    drivePipePorts();
    arbitrateSharedReads();
    m_.assign(ref("retired"), workItems_ ? ref("workitem_retired") : constant(1, 0));
    consumeUnusedInputs();
    return std::move(m_);
  }

private:
  static std::string n(NodeId id, const char *suffix) { return llvm::formatv("n{0}_{1}", id, suffix); }
  /// The width of argument port `i`: 64 bits, a wide vector's own.
  unsigned argBits(unsigned i) const { return k_.argBytes(i) * 8; }
  static std::string port(unsigned p, const char *suffix) { return llvm::formatv("m{0}_{1}", p, suffix); }
  static std::string stream(unsigned s, const char *suffix) { return llvm::formatv("s{0}_{1}", s, suffix); }

  void declarePorts() {
    m_.addPort(Direction::Input, "clk");
    m_.addPort(Direction::Input, "rst");
    m_.addPort(Direction::Input, "start");
    m_.addPort(Direction::Output, "done");
    // A work-item finished at this edge: progress the board's watchdog sees in a kernel that works
    // long without touching memory (a large NDRange whose work-items mostly store nothing).
    m_.addPort(Direction::Output, "retired");
    for (unsigned i = 0; i < k_.numArgs; ++i)
      m_.addPort(Direction::Input, "arg_" + std::to_string(i), argBits(i));
    for (unsigned d = 0; d < 3; ++d) {
      m_.addPort(Direction::Input, "global_offset_" + std::to_string(d), 64);
      m_.addPort(Direction::Input, "global_size_" + std::to_string(d), 64);
    }
    if (k_.computeUnits > 1)
      for (const char *field : UnitShareFields)
        for (unsigned d = 0; d < 3; ++d)
          m_.addPort(Direction::Input, llvm::formatv("unit_{0}_{1}", field, d).str(), 64);
    for (unsigned p = 0; p < k_.ports.size(); ++p) {
      const auto &mp = k_.ports[p];
      unsigned w = mp.bytes * 8;
      m_.addPort(Direction::Output, port(p, "req_valid"));
      m_.addPort(Direction::Input, port(p, "req_ready"));
      m_.addPort(Direction::Output, port(p, "req_addr"), 64);
      if (mp.writesData())
        m_.addPort(Direction::Output, port(p, "req_wdata"), w);
      if (mp.strobes())
        m_.addPort(Direction::Output, port(p, "req_strobe"), mp.bytes);
      if (mp.comparesData())
        m_.addPort(Direction::Output, port(p, "req_cmp"), w);
      m_.addPort(Direction::Input, port(p, "resp_valid"));
      if (mp.readsData())
        m_.addPort(Direction::Input, port(p, "resp_rdata"), w);
    }
    for (unsigned s = 0; s < k_.pipePorts.size(); ++s) {
      const PipePort &pipe = k_.pipePorts[s];
      const unsigned w = pipe.packetBytes * 8;
      if (pipe.transfers) {
        m_.addPort(Direction::Input, stream(s, pipe.writes ? "ready" : "valid"));
        m_.addPort(Direction::Output, stream(s, pipe.writes ? "push" : "pop"));
        m_.addPort(pipe.writes ? Direction::Output : Direction::Input, stream(s, "data"), w);
      }
      if (pipe.reserves) {
        m_.addPort(Direction::Input, stream(s, "reservable"), 32);
        m_.addPort(Direction::Input, stream(s, "reserve_base"), 32);
        m_.addPort(Direction::Output, stream(s, "reserve"));
        m_.addPort(Direction::Output, stream(s, "reserve_count"), 32);
      }
      if (pipe.slots) {
        m_.addPort(Direction::Output, stream(s, "slot_en"));
        m_.addPort(Direction::Output, stream(s, "slot"), 32);
        m_.addPort(pipe.writes ? Direction::Output : Direction::Input, stream(s, pipe.writes ? "slot_wdata" : "slot_rdata"),
                   w);
      }
      if (pipe.commits) {
        m_.addPort(Direction::Output, stream(s, "commit"));
        m_.addPort(Direction::Output, stream(s, "commit_base"), 32);
      }
      if (pipe.queries) {
        m_.addPort(Direction::Input, stream(s, "packets"), 32);
        m_.addPort(Direction::Input, stream(s, "capacity"), 32);
        // A kernel may ask one of the two only.
        unusedBits_.insert(unusedBits_.end(), {ref(stream(s, "packets")), ref(stream(s, "capacity"))});
      }
    }
    argBitsUsed_.assign(k_.numArgs, 0);
  }

  /// A bus of bank `bank` of on-chip memory `m` (ram{m}_rd_addr for a memory of one bank).
  std::string ram(unsigned m, unsigned bank, const char *suffix) const {
    return k_.memories[m].banks.size() == 1 ? llvm::formatv("ram{0}_{1}", m, suffix).str()
                                            : llvm::formatv("ram{0}b{1}_{2}", m, bank, suffix).str();
  }

  /// Each on-chip memory: a loom_ram per bank and the buses its accesses drive, one port per access.
  void declareMemories() {
    ramPorts_.clear();
    for (unsigned m = 0; m < k_.memories.size(); ++m) {
      const OnChipMemory &memory = k_.memories[m];
      const unsigned width = memory.elementBytes * 8, index = memory.bankIndexBits();
      for (unsigned bank = 0; bank < memory.banks.size(); ++bank) {
        const OnChipMemory::Ports &ports = memory.banks[bank];
        const unsigned reads = std::max(1u, ports.reads), writes = std::max(1u, ports.writes);
        auto rdAddr = m_.wire(ram(m, bank, "rd_addr"), reads * index);
        auto rdData = m_.wire(ram(m, bank, "rd_data"), reads * width);
        auto wrEn = m_.wire(ram(m, bank, "wr_en"), writes), wrAddr = m_.wire(ram(m, bank, "wr_addr"), writes * index);
        auto wrData = m_.wire(ram(m, bank, "wr_data"), writes * width);
        // A bank without reads or writes (its accesses optimised away, or all at other banks) keeps
        // one idle port.
        if (!ports.reads) {
          m_.assign(rdAddr, constant(index, 0));
          unusedBits_.push_back(rdData);
        }
        if (!ports.writes) {
          m_.assign(wrEn, constant(1, 0));
          m_.assign(wrAddr, constant(index, 0));
          m_.assign(wrData, constant(width, 0));
        }
        // A constant table's words, the last first (word 0 is the low end of INIT).
        std::vector<ExprRef> words;
        if (!memory.contents.empty())
          for (uint64_t word = memory.bankDepth(); word-- > 0;) {
            const uint64_t element = elementOf(memory, bank, word);
            words.push_back(constant(width, element < memory.contents.size() ? memory.contents[element] : 0));
          }
        m_.instance("loom_ram", ram(m, bank, memory.name.c_str()),
                    {{"WIDTH", width}, {"DEPTH", int64_t(memory.bankDepth())}, {"ADDR_WIDTH", index},
                     {"READS", reads}, {"WRITES", writes}, {"INITIALIZED", int64_t(!words.empty())}},
                    {{"clk", ref("clk")}, {"rd_addr", rdAddr}, {"rd_data", rdData}, {"wr_en", wrEn},
                     {"wr_addr", wrAddr}, {"wr_data", wrData}},
                    words.empty() ? std::vector<std::pair<std::string, ExprRef>>{}
                                  : std::vector<std::pair<std::string, ExprRef>>{{"INIT", concat(words)}});
      }
      ramPorts_.emplace_back(memory.banks.size());
    }
  }

  /// The element index of word `word` of bank `bank`: the word's bits with the bank's number
  /// inserted at the memory's bank bits.
  static uint64_t elementOf(const OnChipMemory &memory, unsigned bank, uint64_t word) {
    uint64_t element = 0;
    unsigned bankBit = 0;
    for (unsigned bit = 0; bit < memory.indexBits(); ++bit) {
      if (bankBit < memory.bankBits.size() && memory.bankBits[bankBit] == bit) {
        element |= uint64_t((bank >> bankBit++) & 1) << bit;
      } else {
        element |= (word & 1) << bit;
        word >>= 1;
      }
    }
    return element;
  }

  /// The wires between a loom_forward_queue (emitted with its load) and the store and store
  /// address nodes that feed it, declared before any of them is emitted.
  struct ForwardQueue {
    NodeId store = 0, announce = 0;
    ExprRef anValid, anReady, anAddr, anPred, stValid, stReady, stData, stOutValid, stOutReady;
  };

  void declareForwardQueues() {
    for (const MemoryPort &port : k_.ports)
      if (port.forwards())
        forwardQueues_[port.forwardsFrom] = {};
    for (NodeId id = 0; id < boost::num_vertices(g_); ++id) {
      const Node &node = g_[id];
      if (node.kind == OpKind::Store && forwardQueues_.count(node.index))
        forwardQueues_[node.index].store = id;
      else if (node.kind == OpKind::StoreAddress)
        forwardQueues_[node.index].announce = id;
    }
    for (auto &[port, queue] : forwardQueues_) {
      auto wire = [&, p = port](const char *suffix, unsigned width = 1) {
        return m_.wire(llvm::formatv("fq{0}_{1}", p, suffix), width);
      };
      queue.anValid = wire("an_valid");
      queue.anReady = wire("an_ready");
      queue.anAddr = wire("an_addr", 64);
      queue.anPred = wire("an_pred");
      queue.stValid = wire("st_valid");
      queue.stReady = wire("st_ready");
      queue.stData = wire("st_data", k_.ports[port].bytes * 8);
      queue.stOutValid = wire("st_out_valid");
      queue.stOutReady = wire("st_out_ready");
    }
  }

  /// Bits [lo, hi) of node `op`'s data that `consumer` reads through operand `operand`.
  std::pair<unsigned, unsigned> bitsRead(const Node &consumer, unsigned operand, const Node &op) const {
    if (consumer.kind == OpKind::Trunc)
      return {unsigned(consumer.constant), unsigned(consumer.constant) + consumer.width};
    if ((consumer.kind == OpKind::RamLoad || consumer.kind == OpKind::RamStore) && operand == 0) {
      const OnChipMemory &memory = k_.memories[consumer.index];
      const unsigned lo = llvm::Log2_32(memory.elementBytes);
      return {lo, lo + memory.indexBits()};
    }
    return {0, op.width};
  }

  /// Port `port` of a memory bus of `ports` fields of `width` bits (a 1-bit wire has no bit to select).
  static ExprRef busField(const std::string &bus, unsigned ports, unsigned port, unsigned width) {
    return ports * width == 1 ? ref(bus) : slice(ref(bus), (port + 1) * width - 1, port * width);
  }

  /// An on-chip memory access's index within its bank: the bits of its byte offset that select an
  /// element, without the bank bits.
  ExprRef ramIndex(const Node &access, NodeId address) {
    const OnChipMemory &memory = k_.memories[access.index];
    const unsigned lo = bitsRead(access, 0, g_[address]).first;
    std::vector<ExprRef> runs; // Most significant first.
    for (unsigned hi = memory.indexBits(); hi > 0;) {
      unsigned low = hi;
      while (low > 0 && !llvm::is_contained(memory.bankBits, low - 1))
        --low;
      if (low < hi)
        runs.push_back(slice(data(address), lo + hi - 1, lo + low));
      hi = low > 0 ? low - 1 : 0;
    }
    if (runs.empty())
      return constant(1, 0); // A bank of one element.
    return runs.size() == 1 ? runs[0] : concat(runs);
  }

  /// The banks access `node` has ports on, and, when several, whether each is the one its address
  /// selects (the address's bank bits equal the bank's number).
  std::vector<std::pair<unsigned, ExprRef>> ramBanks(const Node &access, NodeId address) {
    const OnChipMemory &memory = k_.memories[access.index];
    const unsigned lo = bitsRead(access, 0, g_[address]).first;
    std::vector<ExprRef> bits; // Most significant first.
    for (auto bit = memory.bankBits.rbegin(); bit != memory.bankBits.rend(); ++bit)
      bits.push_back(slice(data(address), lo + *bit, lo + *bit));
    if (access.bank != AllBanks) {
      // Known at compile time: the address's bank bits are not needed.
      unusedBits_.insert(unusedBits_.end(), bits.begin(), bits.end());
      return {{access.bank, constant(1, 1)}};
    }
    ExprRef selected = bits.size() == 1 ? bits[0] : concat(bits);
    std::vector<std::pair<unsigned, ExprRef>> banks;
    for (unsigned bank = 0; bank < memory.banks.size(); ++bank)
      banks.emplace_back(bank, binary("==", selected, constant(memory.bankBits.size(), bank)));
    return banks;
  }

  /// The data of operand node `op` as a name (slices need names, not expressions).
  ExprRef data(NodeId op) const { return data_.at(op); }

  /// The combinational function of a node over its operands' data.
  ExprRef expression(NodeId id, const std::vector<NodeId> &ops) {
    const Node &node = g_[id];
    auto a = [&] { return data(ops[0]); };
    auto b = [&] { return data(ops[1]); };
    switch (node.kind) {
    case OpKind::Argument: {
      argBitsUsed_[node.index] = std::max(argBitsUsed_[node.index], node.width);
      auto arg = ref("arg_" + std::to_string(node.index));
      return node.width == argBits(node.index) ? arg : slice(arg, node.width - 1, 0);
    }
    case OpKind::Constant: return constant(node.width, node.constant);
    case OpKind::GlobalSize:
      globalSizeRead_[node.index] = true;
      return ref("global_size_" + std::to_string(node.index));
    case OpKind::GlobalOffset:
      globalOffsetRead_[node.index] = true;
      return ref("global_offset_" + std::to_string(node.index));
    case OpKind::GlobalId:
      gidDimsUsed_[node.index] = true;
      return slice(a(), 64 * node.index + 63, 64 * node.index);
    case OpKind::WorkItemSlot: return slice(a(), 192 + node.width - 1, 192);
    case OpKind::Add: return binary("+", a(), b());
    case OpKind::Sub: return binary("-", a(), b());
    case OpKind::Mul: return binary("*", a(), b());
    case OpKind::And: return binary("&", a(), b());
    case OpKind::Or: return binary("|", a(), b());
    case OpKind::Xor: return binary("^", a(), b());
    case OpKind::Shl: return binary("<<", a(), b());
    case OpKind::LShr: return binary(">>", a(), b());
    case OpKind::AShr: return binary(">>>", asSigned(a()), b());
    case OpKind::Select: return ternary(a(), b(), data(ops[2]));
    case OpKind::ZExt: return concat({constant(node.width - g_[ops[0]].width, 0), a()});
    case OpKind::SExt: {
      unsigned from = g_[ops[0]].width;
      // A 1-bit wire has no bit to select in Verilog: it is its own sign.
      return concat({replicate(node.width - from, from == 1 ? a() : bit(a(), from - 1)), a()});
    }
    case OpKind::Trunc: return slice(a(), node.constant + node.width - 1, node.constant);
    case OpKind::InsertLane: {
      const unsigned lo = unsigned(node.constant), hi = lo + g_[ops[1]].width;
      std::vector<ExprRef> parts;
      if (hi < node.width)
        parts.push_back(slice(a(), node.width - 1, hi));
      parts.push_back(b());
      if (lo > 0)
        parts.push_back(slice(a(), lo - 1, 0));
      return concat(parts);
    }
    case OpKind::FNeg: return concat({unary("~", bit(a(), 31)), slice(a(), 30, 0)});
    case OpKind::ICmp: return compare(static_cast<llvm::CmpInst::Predicate>(node.predicate), a(), b());
    case OpKind::RamLoad: {
      const OnChipMemory &memory = k_.memories[node.index];
      const unsigned width = memory.elementBytes * 8, index = memory.bankIndexBits();
      ExprRef bankIndex = ramIndex(node, ops[0]), selected;
      for (const auto &[bank, chosen] : ramBanks(node, ops[0])) {
        const unsigned ports = memory.banks[bank].reads;
        const unsigned port = memory.readsShared ? node.ramPort : ramPorts_[node.index][bank].reads++;
        if (memory.readsShared)
          sharedReads_[{unsigned(node.index), port}].push_back({id, bankIndex});
        else
          m_.assign(busField(ram(node.index, bank, "rd_addr"), ports, port, index), bankIndex);
        ExprRef read = busField(ram(node.index, bank, "rd_data"), ports, port, width);
        selected = selected ? ternary(chosen, read, selected) : read;
      }
      ExprRef word = m_.wire(n(id, "word"), width, selected);
      // A work-item that does not reach the access reads nothing: zero, like a skipped load.
      return node.predicated ? ternary(data(ops[1]), word, constant(width, 0)) : word;
    }
    case OpKind::Address: {
      ExprRef sum = a();
      if (node.constant)
        sum = binary("+", sum, constant(64, node.constant));
      for (size_t i = 0; i < node.scales.size(); ++i) {
        uint64_t scale = node.scales[i];
        ExprRef index = data(ops[i + 1]);
        ExprRef scaled = llvm::isPowerOf2_64(scale)
                             ? (scale == 1 ? index : binary("<<", index, constant(32, llvm::Log2_64(scale))))
                             : binary("*", index, constant(64, scale));
        sum = binary("+", sum, scaled);
      }
      return sum;
    }
    default:
      llvm_unreachable("node kind has no combinational expression");
    }
  }

  static ExprRef compare(llvm::CmpInst::Predicate p, ExprRef a, ExprRef b) {
    using P = llvm::CmpInst::Predicate;
    bool isSigned = llvm::CmpInst::isSigned(p);
    if (isSigned) {
      a = asSigned(a);
      b = asSigned(b);
    }
    switch (p) {
    case P::ICMP_EQ: return binary("==", a, b);
    case P::ICMP_NE: return binary("!=", a, b);
    case P::ICMP_UGT:
    case P::ICMP_SGT: return binary(">", a, b);
    case P::ICMP_UGE:
    case P::ICMP_SGE: return binary(">=", a, b);
    case P::ICMP_ULT:
    case P::ICMP_SLT: return binary("<", a, b);
    default: return binary("<=", a, b);
    }
  }

  static bool isFloatFunction(OpKind kind) {
    return kind == OpKind::FCmp || kind == OpKind::SIToFP || kind == OpKind::UIToFP ||
           kind == OpKind::FPToSI || kind == OpKind::FPToUI;
  }

  /// A combinational library function (loom_fcmp, loom_itof, loom_ftoi) on the operands' data; its
  /// result wire, which the node's pipe then registers like an expression.
  ExprRef floatFunction(NodeId id, const std::vector<NodeId> &ops) {
    const Node &node = g_[id];
    ExprRef result = m_.wire(n(id, "fn"), node.width);
    switch (node.kind) {
    case OpKind::FCmp:
      m_.instance("loom_fcmp", n(id, "fcmp"), {{"PREDICATE", int64_t(node.predicate)}},
                  {{"a", data(ops[0])}, {"b", data(ops[1])}, {"result", result}});
      break;
    case OpKind::SIToFP:
    case OpKind::UIToFP:
      m_.instance("loom_itof", n(id, "itof"),
                  {{"WIDTH", int64_t(g_[ops[0]].width)}, {"SIGNED", int64_t(node.kind == OpKind::SIToFP)}},
                  {{"in", data(ops[0])}, {"result", result}});
      break;
    default:
      m_.instance("loom_ftoi", n(id, "ftoi"),
                  {{"WIDTH", int64_t(node.width)}, {"SIGNED", int64_t(node.kind == OpKind::FPToSI)}},
                  {{"a", data(ops[0])}, {"result", result}});
    }
    return result;
  }

  void emitStatic(NodeId id) {
    if (boost::out_degree(id, g_) == 0)
      return; // An unused argument: its port bits are consumed in consumeUnusedInputs.
    data_[id] = m_.wire(llvm::formatv("s{0}", id), g_[id].width, expression(id, k_.operands(id)));
  }

  /// The channel that carries `from`'s token along edge `edge`, forking when several consume it.
  Channel channelFor(NodeId from, EdgeId edge) {
    auto consumers = k_.consumers(from);
    if (consumers.size() == 1)
      return {ref(n(from, "valid")), ref(n(from, "ready"))};
    unsigned j = std::find(consumers.begin(), consumers.end(), edge) - consumers.begin();
    return {bit(ref(n(from, "fvalid")), j), bit(ref(n(from, "fready")), j)};
  }

  /// Joins the dynamic operand channels of `id`; returns the joined channel (driven by the node).
  Channel joinInputs(NodeId id) {
    std::vector<std::pair<unsigned, EdgeId>> inputs;
    for (auto [it, end] = boost::in_edges(id, g_); it != end; ++it)
      if (!g_[boost::source(*it, g_)].isStatic)
        inputs.emplace_back(g_[*it].operand, *it);
    std::sort(inputs.begin(), inputs.end(), [](auto &x, auto &y) { return x.first < y.first; });
    if (inputs.size() == 1)
      return channelFor(boost::source(inputs[0].second, g_), inputs[0].second);
    auto valid = m_.wire(n(id, "in_valid"));
    auto ready = m_.wire(n(id, "in_ready"));
    auto readies = m_.wire(n(id, "join_ready"), inputs.size());
    std::vector<ExprRef> valids;
    for (int i = inputs.size() - 1; i >= 0; --i) {
      Channel c = channelFor(boost::source(inputs[i].second, g_), inputs[i].second);
      valids.push_back(c.valid);
      m_.assign(c.ready, bit(readies, i));
    }
    m_.instance("loom_join", n(id, "join"), {{"N", int64_t(inputs.size())}},
                {{"in_valid", concat(valids)}, {"in_ready", readies}, {"out_valid", valid}, {"out_ready", ready}});
    return {valid, ready};
  }

  /// Declares the node's output channel and, for several consumers, its fork.
  void declareOutput(NodeId id) {
    const Node &node = g_[id];
    m_.wire(n(id, "valid"));
    m_.wire(n(id, "ready"));
    if (node.width)
      data_[id] = m_.wire(n(id, "data"), node.width);
    auto consumers = k_.consumers(id);
    if (consumers.size() == 0 && node.kind != OpKind::Completion)
      m_.assign(ref(n(id, "ready")), constant(1, 1));
    if (consumers.size() > 1) {
      unsigned k = consumers.size();
      m_.wire(n(id, "fvalid"), k);
      m_.wire(n(id, "fready"), k);
      m_.instance("loom_fork", n(id, "fork"), {{"N", int64_t(k)}},
                  {{"clk", ref("clk")}, {"rst", ref("rst")}, {"in_valid", ref(n(id, "valid"))},
                   {"in_ready", ref(n(id, "ready"))}, {"out_valid", ref(n(id, "fvalid"))},
                   {"out_ready", ref(n(id, "fready"))}});
    }
  }

  /// The part of the range this module's work-items come from: a compute unit's, or the NDRange.
  ExprRef rangeInput(const char *what, unsigned d) const {
    return ref(llvm::formatv("{0}_{1}_{2}", k_.computeUnits > 1 ? "unit" : "global", what, d).str());
  }

  std::vector<std::pair<std::string, ExprRef>> clocking() { return {{"clk", ref("clk")}, {"rst", ref("rst")}}; }

  void emitDynamic(NodeId id) {
    const Node &node = g_[id];
    m_.comment(llvm::formatv("%{0} {1} {2}{3}", id, opName(node.kind), node.name,
                             node.location.empty() ? "" : " at " + node.location));
    auto ops = k_.operands(id);
    auto out = [&](const char *s) { return ref(n(id, s)); };

    if (node.kind == OpKind::WorkItems) {
      workItems_ = id;
      auto conns = clocking();
      conns.push_back({"start", ref("start")});
      // A compute unit's work-items come in blocks between the other units'.
      const bool interleaved = k_.computeUnits > 1;
      for (unsigned d = 0; d < 3; ++d)
        for (const char *field : UnitShareFields) {
          const bool range = llvm::StringRef(field) == "offset" || llvm::StringRef(field) == "size";
          conns.push_back({field + std::to_string(d), range || interleaved ? rangeInput(field, d) : constant(64, 0)});
        }
      // Completion drives retire: a work-item has finished, and gives back its slot.
      const unsigned slotBits = node.width - 192;
      conns.push_back({"retire", m_.wire("workitem_retired")});
      conns.push_back({"retire_slot", slotBits ? m_.wire("workitem_retired_slot", slotBits) : constant(1, 0)});
      conns.push_back({"out_valid", out("valid")});
      conns.push_back({"out_ready", out("ready")});
      for (unsigned d = 0; d < 3; ++d)
        conns.push_back({"gid" + std::to_string(d), slice(out("data"), 64 * d + 63, 64 * d)});
      conns.push_back({"slot", slotBits ? slice(out("data"), node.width - 1, 192) : m_.wire(n(id, "unused_slot"))});
      m_.instance("loom_workitems", n(id, "workitems"),
                  {{"LIMIT", int64_t(k_.workItemLimit)},
                   {"SLOT_BITS", int64_t(std::max(1u, slotBits))},
                   {"STEP0", int64_t(k_.simdWorkItems)},
                   {"INTERLEAVED", int64_t(interleaved)}},
                  conns);
      if (!slotBits)
        unusedBits_.push_back(ref(n(id, "unused_slot")));
      return;
    }

    if (node.kind == OpKind::LoopControl || node.kind == OpKind::LoopMux) {
      emitLoopNode(id);
      return;
    }
    Channel in = joinInputs(id);
    switch (node.kind) {
    case OpKind::Steer: {
      // Passes the value when the condition matches, drops it otherwise.
      ExprRef condition = data(ops[1]);
      ExprRef match = node.constant ? condition : unary("~", condition);
      m_.assign(out("valid"), binary("&", in.valid, match));
      m_.assign(in.ready, binary("|", out("ready"), unary("~", match)));
      if (node.width)
        m_.assign(out("data"), data(ops[0]));
      return;
    }
    case OpKind::Join:
      m_.assign(out("valid"), in.valid);
      m_.assign(in.ready, out("ready"));
      return;
    case OpKind::Completion: {
      auto conns = clocking();
      conns.push_back({"start", ref("start")});
      for (unsigned d = 0; d < 3; ++d)
        conns.push_back({"size" + std::to_string(d), rangeInput("size", d)});
      // Done waits for every posted store port to have no write in flight. A posted store's token
      // reaches the completion along forward edges, so every one was emitted before it.
      ExprRef drained = postedDrained_.empty()       ? constant(1, 1)
                        : postedDrained_.size() == 1 ? postedDrained_[0]
                                                     : unary("&", concat(postedDrained_));
      conns.insert(conns.end(),
                   {{"in_valid", in.valid}, {"in_ready", in.ready}, {"drained", drained}, {"done", ref("done")}});
      m_.instance("loom_completion", n(id, "completion"), {{"STEP0", int64_t(k_.simdWorkItems)}}, conns);
      if (workItems_)
        m_.assign(ref("workitem_retired"), in.valid); // loom_completion is always ready.
      if (node.constant)
        m_.assign(ref("workitem_retired_slot"), data(ops[0]));
      return;
    }
    case OpKind::FAdd:
    case OpKind::FSub:
    case OpKind::FMul:
    case OpKind::FDiv: {
      ExprRef rhs = data(ops[1]);
      if (node.kind == OpKind::FSub)
        rhs = concat({unary("~", bit(rhs, 31)), slice(rhs, 30, 0)});
      auto conns = clocking();
      conns.insert(conns.end(), {{"in_valid", in.valid}, {"in_ready", in.ready}, {"a", data(ops[0])},
                                 {"b", rhs}, {"out_valid", out("valid")}, {"out_ready", out("ready")},
                                 {"result", out("data")}});
      m_.instance(node.kind == OpKind::FMul ? "loom_fmul" : node.kind == OpKind::FDiv ? "loom_fdiv" : "loom_fadd",
                  n(id, "fp"), {{"LATENCY", node.latency}}, conns);
      return;
    }
    case OpKind::UDiv:
    case OpKind::SDiv:
    case OpKind::URem:
    case OpKind::SRem: {
      auto conns = clocking();
      conns.insert(conns.end(), {{"in_valid", in.valid}, {"in_ready", in.ready}, {"a", data(ops[0])},
                                 {"b", data(ops[1])}, {"out_valid", out("valid")}, {"out_ready", out("ready")},
                                 {"result", out("data")}});
      const bool isSigned = node.kind == OpKind::SDiv || node.kind == OpKind::SRem;
      const bool remainder = node.kind == OpKind::URem || node.kind == OpKind::SRem;
      m_.instance("loom_idiv", n(id, "div"),
                  {{"WIDTH", int64_t(node.width)}, {"SIGNED", int64_t(isSigned)},
                   {"REMAINDER", int64_t(remainder)}, {"LATENCY", node.latency}},
                  conns);
      return;
    }
    case OpKind::FSqrt: {
      auto conns = clocking();
      conns.insert(conns.end(), {{"in_valid", in.valid}, {"in_ready", in.ready}, {"a", data(ops[0])},
                                 {"out_valid", out("valid")}, {"out_ready", out("ready")}, {"result", out("data")}});
      m_.instance("loom_fsqrt", n(id, "fp"), {{"LATENCY", node.latency}}, conns);
      return;
    }
    case OpKind::StoreAddress: {
      const ForwardQueue &queue = forwardQueues_.at(node.index);
      m_.assign(queue.anValid, in.valid);
      m_.assign(in.ready, queue.anReady);
      m_.assign(queue.anAddr, data(ops[0]));
      m_.assign(queue.anPred, node.predicated ? data(ops[1]) : constant(1, 1));
      return;
    }
    case OpKind::Load:
      if (k_.ports[node.index].forwards()) {
        emitForwardQueue(id, in);
        return;
      }
      [[fallthrough]];
    case OpKind::Store:
    case OpKind::Atomic: {
      unsigned p = node.index;
      bool store = node.kind == OpKind::Store;
      Channel unitIn = in;
      Channel unitOut{out("valid"), out("ready")};
      ExprRef unitData = node.width ? out("data") : nullptr;
      if (node.predicated) {
        // loom_skip_merge passes the predicated-on items to the unit and the rest around it, in order.
        unitIn = {m_.wire(n(id, "unit_in_valid")), m_.wire(n(id, "unit_in_ready"))};
        unitOut = {m_.wire(n(id, "unit_out_valid")), m_.wire(n(id, "unit_out_ready"))};
        unsigned dw = std::max(1u, node.width);
        if (node.width)
          unitData = m_.wire(n(id, "unit_out_data"), node.width);
        auto merge = clocking();
        merge.insert(merge.end(),
                     {{"in_valid", in.valid}, {"in_ready", in.ready},
                      {"in_pred", data(ops[dataOperandCount(node) - 1])},
                      {"unit_in_valid", unitIn.valid}, {"unit_in_ready", unitIn.ready},
                      {"unit_out_valid", unitOut.valid}, {"unit_out_ready", unitOut.ready},
                      {"unit_out_data", node.width ? unitData : constant(1, 0)},
                      {"out_valid", out("valid")}, {"out_ready", out("ready")},
                      {"out_data", node.width ? out("data") : m_.wire(n(id, "unused_token_data"))}});
        m_.instance("loom_skip_merge", n(id, "skip"), {{"DW", int64_t(dw)}, {"DEPTH", int64_t(node.depth + 2)}},
                    merge);
      }
      if (store && forwardQueues_.count(p)) {
        // The queue took the address from the store's announcement; the data joins it here.
        const ForwardQueue &queue = forwardQueues_.at(p);
        m_.assign(queue.stValid, unitIn.valid);
        m_.assign(unitIn.ready, queue.stReady);
        m_.assign(queue.stData, data(ops[1]));
        m_.assign(unitOut.valid, queue.stOutValid);
        m_.assign(queue.stOutReady, unitOut.ready);
        unusedBits_.push_back(data(ops[0])); // The constant standing for the announced address.
        return;
      }
      auto conns = clocking();
      conns.insert(conns.end(), {{"in_valid", unitIn.valid}, {"in_ready", unitIn.ready}, {"in_addr", data(ops[0])}});
      if (store)
        conns.push_back({"in_data", data(ops[1])});
      conns.insert(conns.end(), {{"m_req_valid", ref(port(p, "req_valid"))},
                                 {"m_req_ready", ref(port(p, "req_ready"))},
                                 {"m_req_addr", ref(port(p, "req_addr"))}});
      if (store)
        conns.push_back({"m_req_wdata", ref(port(p, "req_wdata"))});
      if (k_.ports[p].strobes())
        conns.push_back({"m_req_strobe", ref(port(p, "req_strobe"))});
      conns.push_back({"m_resp_valid", ref(port(p, "resp_valid"))});
      if (!store)
        conns.push_back({"m_resp_rdata", ref(port(p, "resp_rdata"))});
      conns.insert(conns.end(), {{"out_valid", unitOut.valid}, {"out_ready", unitOut.ready}});
      if (!store)
        conns.push_back({"out_data", unitData});
      if (node.kind == OpKind::Atomic) {
        // An atomic is a load port whose request also carries its operands: loom_load passes the
        // request through combinationally, so they travel beside the address it accepts.
        m_.assign(ref(port(p, "req_wdata")), data(ops[1]));
        if (k_.ports[p].comparesData())
          m_.assign(ref(port(p, "req_cmp")), data(ops[2]));
      }
      const char *role = store ? "store" : node.kind == OpKind::Atomic ? "atomic" : "load";
      const MemoryPort &mp = k_.ports[p];
      using Param = std::pair<std::string, int64_t>;
      std::vector<Param> params{{"CREDITS", node.depth}};
      if (!mp.lines())
        params.push_back({"DW", mp.bytes * 8});
      else // A line store flushes a partial line after StoreLineIdleCycles without a store.
        params.insert(params.end(), {{"DW", mp.elementBytes * 8}, {"LINE_BYTES", mp.bytes},
                                     store ? Param{"IDLE", StoreLineIdleCycles} : Param{"LINES", lineBuffers(k_, id)}});
      if (store) {
        params.push_back({"POSTED", node.posted ? 1 : 0});
        ExprRef drained = m_.wire(n(id, "drained"));
        conns.push_back({"drained", drained});
        (node.posted ? postedDrained_ : unusedBits_).push_back(drained);
      }
      m_.instance(std::string("loom_") + (store ? "store" : "load") + (mp.lines() ? "_lines" : ""), n(id, role), params,
                  conns);
      return;
    }
    case OpKind::RamStore: {
      // The word is written at the edge the access is accepted; its token leaves a cycle later.
      const OnChipMemory &memory = k_.memories[node.index];
      const unsigned width = memory.elementBytes * 8, index = memory.bankIndexBits();
      ExprRef accepted = binary("&", in.valid, in.ready);
      if (node.predicated)
        accepted = binary("&", accepted, data(ops[2]));
      ExprRef bankIndex = ramIndex(node, ops[0]);
      const auto banks = ramBanks(node, ops[0]);
      for (const auto &[bank, chosen] : banks) {
        const unsigned port = ramPorts_[node.index][bank].writes++, ports = memory.banks[bank].writes;
        m_.assign(busField(ram(node.index, bank, "wr_en"), ports, port, 1),
                  banks.size() == 1 ? accepted : binary("&", accepted, chosen));
        m_.assign(busField(ram(node.index, bank, "wr_addr"), ports, port, index), bankIndex);
        m_.assign(busField(ram(node.index, bank, "wr_data"), ports, port, width), data(ops[1]));
      }
      auto conns = clocking();
      conns.insert(conns.end(), {{"in_valid", in.valid}, {"in_ready", in.ready}, {"in_data", constant(1, 0)},
                                 {"out_valid", out("valid")}, {"out_ready", out("ready")},
                                 {"out_data", m_.wire(n(id, "unused"))}});
      m_.instance("loom_pipe", n(id, "pipe"), {{"WIDTH", 1}, {"LATENCY", node.latency}}, conns);
      return;
    }
    case OpKind::PipeRead:
    case OpKind::PipeWrite:
    case OpKind::PipeReserve:
    case OpKind::PipeSlotRead:
    case OpKind::PipeSlotWrite:
    case OpKind::PipeCommit:
    case OpKind::PipeQuery:
      emitPipeAccess(id, in);
      return;
    case OpKind::Fifo: {
      // A token FIFO still needs a data bit; its output is deliberately dropped.
      ExprRef inData = node.width ? data(ops[0]) : constant(1, 0);
      ExprRef outData = node.width ? out("data") : m_.wire(n(id, "unused"));
      auto conns = clocking();
      conns.insert(conns.end(), {{"in_valid", in.valid}, {"in_ready", in.ready}, {"in_data", inData},
                                 {"out_valid", out("valid")}, {"out_ready", out("ready")}, {"out_data", outData}});
      m_.instance("loom_fifo", n(id, "fifo"), {{"WIDTH", std::max(1u, node.width)}, {"DEPTH", node.depth}},
                  conns);
      return;
    }
    default:
      break;
    }
    ExprRef value = isFloatFunction(node.kind) ? floatFunction(id, ops) : expression(id, ops);
    if (node.kind == OpKind::RamLoad && k_.memories[node.index].readsShared)
      in = takeTurns(id, in);
    if (node.latency == 0) {
      m_.assign(out("valid"), in.valid);
      m_.assign(in.ready, out("ready"));
      m_.assign(out("data"), value);
      return;
    }
    auto conns = clocking();
    conns.insert(conns.end(), {{"in_valid", in.valid}, {"in_ready", in.ready},
                               {"in_data", m_.wire(n(id, "comb"), node.width, value)},
                               {"out_valid", out("valid")}, {"out_ready", out("ready")}, {"out_data", out("data")}});
    m_.instance("loom_pipe", n(id, "pipe"), {{"WIDTH", node.width}, {"LATENCY", node.latency}}, conns);
  }

  /// A read of a shared port: its token enters the node's register only when the port is its (or
  /// when its work-item skips the read). It asks for the port only when the register can take the
  /// token, so a stalled read never holds the port.
  Channel takeTurns(NodeId id, Channel in) {
    const Node &node = g_[id];
    ExprRef needed = node.predicated ? data(k_.operands(id)[1]) : constant(1, 1);
    ExprRef granted = m_.wire(n(id, "granted")), valid = m_.wire(n(id, "turn_valid")),
            ready = m_.wire(n(id, "turn_ready"));
    m_.assign(m_.wire(n(id, "request")), binary("&", binary("&", in.valid, ready), needed));
    ExprRef mayPass = binary("|", granted, unary("~", needed));
    m_.assign(valid, binary("&", in.valid, mayPass));
    m_.assign(in.ready, binary("&", ready, mayPass));
    return {valid, ready};
  }

  /// Each shared read port: the read furthest along the graph (an older work-item's, usually)
  /// that asks takes it, and its address drives the port.
  void arbitrateSharedReads() {
    for (const auto &[key, reads] : sharedReads_) {
      const auto [m, port] = key;
      const OnChipMemory &memory = k_.memories[m];
      ExprRef address = reads.front().second, taken = constant(1, 0);
      for (size_t i = 1; i < reads.size(); ++i)
        address = ternary(ref(n(reads[i].first, "request")), reads[i].second, address);
      for (auto read = reads.rbegin(); read != reads.rend(); ++read) {
        m_.assign(ref(n(read->first, "granted")), unary("~", taken));
        taken = binary("|", taken, ref(n(read->first, "request")));
      }
      unusedBits_.push_back(ref(n(reads.front().first, "request"))); // The last in turn takes what is left.
      m_.assign(busField(ram(m, 0, "rd_addr"), memory.banks[0].reads, port, memory.bankIndexBits()), address);
    }
  }

  /// The signals of a pipe port an access of `kind` drives: its firing one first.
  static std::vector<const char *> pipeSignals(OpKind kind, bool writes) {
    switch (kind) {
    case OpKind::PipeRead: return {"pop"};
    case OpKind::PipeWrite: return {"push", "data"};
    case OpKind::PipeReserve: return {"reserve", "reserve_count"};
    case OpKind::PipeSlotRead:
    case OpKind::PipeSlotWrite: return writes ? std::vector<const char *>{"slot_en", "slot", "slot_wdata"}
                                              : std::vector<const char *>{"slot_en", "slot"};
    case OpKind::PipeCommit: return {"commit", "commit_base"};
    default: return {};
    }
  }

  /// The accesses of one pipe port that drive the same signals (several calls of one kind on a
  /// pipe): each gets a request wire, and an access yields to those after it in the graph's order,
  /// an older work-item's (the work-item's own keep their order through ordering edges).
  void declarePipeArbiters() {
    std::map<std::pair<unsigned, const char *>, std::vector<NodeId>> sharing;
    for (NodeId id = 0; id < boost::num_vertices(g_); ++id)
      if (isPipeAccess(g_[id].kind) && g_[id].kind != OpKind::PipeQuery)
        sharing[{g_[id].index, pipeSignals(g_[id].kind, k_.pipePorts[g_[id].index].writes)[0]}].push_back(id);
    for (const auto &entry : sharing) {
      const std::vector<NodeId> &accesses = entry.second;
      if (accesses.size() < 2)
        continue;
      for (size_t i = 0; i + 1 < accesses.size(); ++i)
        pipeRivals_[accesses[i]].assign(accesses.begin() + std::ptrdiff_t(i) + 1, accesses.end());
      for (size_t i = 1; i < accesses.size(); ++i) {
        m_.wire(n(accesses[i], "request"));
        pipeRequests_.insert(accesses[i]);
      }
    }
  }

  /// A pipe access: the board's FIFO offers a packet, room, what a reservation may claim (sampled at
  /// the cycle's start) or a reservation's packet (in the same cycle), the access takes effect at
  /// the edge its token is accepted, and its result leaves through a register. A waiting transfer
  /// holds its token until the FIFO is ready; a trying one, and a reservation, take what they find.
  /// An access that another one of the port's signals takes at this edge holds its token too.
  void emitPipeAccess(NodeId id, Channel in) {
    const Node &node = g_[id];
    const auto ops = k_.operands(id);
    const unsigned s = node.index, packetBits = k_.pipePorts[s].packetBytes * 8;
    ExprRef wanted = node.predicated ? data(ops[dataOperandCount(node) - 1]) : constant(1, 1);
    ExprRef regValid = m_.wire(n(id, "reg_in_valid")), regReady = m_.wire(n(id, "reg_in_ready"));
    ExprRef possible = constant(1, 1), ready = constant(1, 1), result = constant(1, 0);
    std::vector<ExprRef> values; // what the access drives onto its signals after the firing one
    switch (node.kind) {
    case OpKind::PipeRead:
    case OpKind::PipeWrite: {
      const bool reads = node.kind == OpKind::PipeRead, waits = node.constant != 0;
      possible = ref(stream(s, reads ? "valid" : "ready"));
      if (waits)
        ready = binary("|", unary("~", wanted), possible);
      if (!reads)
        values.push_back(data(ops[0]));
      if (reads || !waits) {
        ExprRef moved = m_.wire(n(id, "moved"), 1, binary("&", wanted, possible));
        ExprRef packet = ternary(moved, ref(stream(s, "data")), constant(packetBits, 0));
        result = reads ? (waits ? packet : concat({moved, packet})) : moved;
      }
      break;
    }
    case OpKind::PipeReserve: {
      // A reservation of no packets claims nothing: CLK_NULL_RESERVE_ID, as when too few are there.
      ExprRef count = data(ops[0]);
      possible = m_.wire(n(id, "claims"), 1,
                         binary("&", binary("!=", count, constant(32, 0)),
                                binary(">=", ref(stream(s, "reservable")), count)));
      values.push_back(count);
      result = ternary(binary("&", wanted, possible), concat({count, ref(stream(s, "reserve_base"))}),
                       constant(64, ~0ull));
      break;
    }
    case OpKind::PipeSlotRead:
      // Asking for a packet changes nothing; the FIFO answers within the cycle.
      values.push_back(data(ops[0]));
      result = ternary(wanted, ref(stream(s, "slot_rdata")), constant(packetBits, 0));
      break;
    case OpKind::PipeSlotWrite:
      values.insert(values.end(), {data(ops[1]), data(ops[0])});
      break;
    case OpKind::PipeCommit: {
      // Committing CLK_NULL_RESERVE_ID (a reservation that claimed nothing) does nothing.
      ExprRef reservation = data(ops[0]);
      possible = binary("!=", reservation, constant(64, ~0ull));
      values.push_back(slice(reservation, 31, 0));
      break;
    }
    case OpKind::PipeQuery:
      result = ref(stream(s, node.constant ? "capacity" : "packets"));
      break;
    default:
      llvm_unreachable("not a pipe access");
    }
    ExprRef go = ready;
    if (node.kind != OpKind::PipeQuery) {
      // It takes the port's signals at this edge: accepted, wanted, possible, and no rival takes them.
      ExprRef takes = binary("&", binary("&", in.valid, regReady), binary("&", wanted, possible));
      if (pipeRequests_.count(id))
        m_.assign(ref(n(id, "request")), takes);
      if (auto rivals = pipeRivals_.find(id); rivals != pipeRivals_.end()) {
        std::vector<ExprRef> requests;
        for (NodeId rival : rivals->second)
          requests.push_back(ref(n(rival, "request")));
        ExprRef yields = m_.wire(n(id, "yields"), 1, binary("&", wanted, unary("|", concat(requests))));
        go = binary("&", go, unary("~", yields));
        takes = binary("&", takes, unary("~", yields));
      }
      const auto signals = pipeSignals(node.kind, k_.pipePorts[s].writes);
      pipeDrivers_[stream(s, signals[0])].push_back({takes, nullptr});
      for (size_t v = 0; v < values.size(); ++v)
        pipeDrivers_[stream(s, signals[v + 1])].push_back({takes, values[v]});
    }
    m_.assign(regValid, binary("&", in.valid, go));
    m_.assign(in.ready, binary("&", regReady, go));
    auto conns = clocking();
    conns.insert(conns.end(), {{"in_valid", regValid}, {"in_ready", regReady},
                               {"in_data", m_.wire(n(id, "result"), std::max(1u, node.width), result)},
                               {"out_valid", ref(n(id, "valid"))}, {"out_ready", ref(n(id, "ready"))},
                               {"out_data", node.width ? ref(n(id, "data")) : m_.wire(n(id, "unused"))}});
    m_.instance("loom_pipe", n(id, "pipe"), {{"WIDTH", std::max(1u, node.width)}, {"LATENCY", std::max(1u, node.latency)}},
                conns);
  }

  /// Each pipe port output from the accesses driving it: a firing signal when one of them takes it,
  /// a value from the one that does (the only one's, unconditionally).
  void drivePipePorts() {
    for (const auto &[signal, drivers] : pipeDrivers_) {
      if (!drivers.front().value) {
        std::vector<ExprRef> fires;
        for (const PipeDriver &driver : drivers)
          fires.push_back(driver.takes);
        m_.assign(ref(signal), fires.size() == 1 ? fires[0] : unary("|", concat(fires)));
        continue;
      }
      ExprRef value = drivers.back().value;
      for (size_t d = drivers.size() - 1; d-- > 0;)
        value = ternary(drivers[d].takes, drivers[d].value, value);
      m_.assign(ref(signal), value);
    }
  }

  /// A load that forwards from a store port's queue: the loom_forward_queue serving both ports. It
  /// takes the load's predicate itself (no loom_skip_merge): every load and every announcement
  /// must reach it, in turn.
  void emitForwardQueue(NodeId id, Channel in) {
    const Node &node = g_[id];
    const unsigned p = node.index, s = k_.ports[p].forwardsFrom;
    const ForwardQueue &queue = forwardQueues_.at(s);
    const auto ops = k_.operands(id);
    auto conns = clocking();
    conns.insert(conns.end(),
                 {{"ld_valid", in.valid}, {"ld_ready", in.ready}, {"ld_addr", data(ops[0])},
                  {"ld_pred", node.predicated ? data(ops[1]) : constant(1, 1)},
                  {"ld_out_valid", ref(n(id, "valid"))}, {"ld_out_ready", ref(n(id, "ready"))},
                  {"ld_out_data", ref(n(id, "data"))},
                  {"an_valid", queue.anValid}, {"an_ready", queue.anReady}, {"an_addr", queue.anAddr},
                  {"an_pred", queue.anPred}, {"st_valid", queue.stValid}, {"st_ready", queue.stReady},
                  {"st_data", queue.stData}, {"st_out_valid", queue.stOutValid}, {"st_out_ready", queue.stOutReady},
                  {"ml_req_valid", ref(port(p, "req_valid"))}, {"ml_req_ready", ref(port(p, "req_ready"))},
                  {"ml_req_addr", ref(port(p, "req_addr"))}, {"ml_resp_valid", ref(port(p, "resp_valid"))},
                  {"ml_resp_rdata", ref(port(p, "resp_rdata"))},
                  {"ms_req_valid", ref(port(s, "req_valid"))}, {"ms_req_ready", ref(port(s, "req_ready"))},
                  {"ms_req_addr", ref(port(s, "req_addr"))}, {"ms_req_wdata", ref(port(s, "req_wdata"))},
                  {"ms_resp_valid", ref(port(s, "resp_valid"))}});
    m_.instance("loom_forward_queue", n(id, "forward"),
                {{"DW", k_.ports[p].bytes * 8}, {"CREDITS", node.depth},
                 {"ENTRIES", forwardingEntries(g_[queue.store], g_[queue.announce])}},
                conns);
  }

  /// The channel into operand `operand` of `id`; a static operand is always valid (no ready).
  Channel operandChannel(NodeId id, unsigned operand) {
    for (auto [it, end] = boost::in_edges(id, g_); it != end; ++it) {
      if (g_[*it].operand != operand)
        continue;
      NodeId from = boost::source(*it, g_);
      if (g_[from].isStatic)
        return {constant(1, 1), nullptr};
      return channelFor(from, *it);
    }
    llvm_unreachable("missing operand");
  }

  /// LoopControl (loom_loop_control) and LoopMux (a multiplexer that takes only the chosen input).
  void emitLoopNode(NodeId id) {
    const Node &node = g_[id];
    auto out = [&](const char *s) { return ref(n(id, s)); };
    if (node.kind == OpKind::LoopControl) {
      Channel entry = operandChannel(id, 0), back = operandChannel(id, 1), exit = operandChannel(id, 2);
      auto conns = clocking();
      conns.insert(conns.end(), {{"entry_valid", entry.valid}, {"entry_ready", entry.ready},
                                 {"back_valid", back.valid}, {"back_ready", back.ready},
                                 {"exit_valid", exit.valid}, {"exit_ready", exit.ready},
                                 {"out_valid", out("valid")}, {"out_ready", out("ready")}, {"out_first", out("data")}});
      m_.instance("loom_loop_control", n(id, "control"), {{"LIMIT", int64_t(node.depth)}}, conns);
      return;
    }
    auto ops = k_.operands(id);
    Channel select = operandChannel(id, 0), entry = operandChannel(id, 1), back = operandChannel(id, 2);
    ExprRef first = data(ops[0]);
    ExprRef take = m_.wire(n(id, "take"), 1, binary("&", select.valid, out("ready")));
    m_.assign(out("valid"), binary("&", select.valid, ternary(first, entry.valid, back.valid)));
    m_.assign(select.ready, binary("&", out("ready"), out("valid")));
    if (entry.ready)
      m_.assign(entry.ready, binary("&", take, first));
    if (back.ready)
      m_.assign(back.ready, binary("&", take, unary("~", first)));
    if (node.width)
      m_.assign(out("data"), ternary(first, data(ops[1]), data(ops[2])));
  }

  /// Whether `consumer` reads the data (not only the token) of its operand `operand`.
  static bool readsData(const Node &consumer, unsigned operand) {
    // A token FIFO, steer or loop mux passes its value operands' tokens without their data.
    if (!consumer.width && ((consumer.kind == OpKind::Fifo || consumer.kind == OpKind::Steer) ? operand == 0
                            : consumer.kind == OpKind::LoopMux                                 ? operand > 0
                                                                                               : false))
      return false;
    return operand < dataOperandCount(consumer);
  }

  /// Argument bits the kernel never reads are still ports (the host ABI passes 64 bits), and the
  /// work-item generator yields all three ids; fold what is not read into a wire Verilator's lint
  /// recognises as intentionally unused.
  void consumeUnusedInputs() {
    std::vector<ExprRef> bits;
    if (workItems_)
      for (unsigned d = 0; d < 3; ++d)
        if (!gidDimsUsed_[d])
          bits.push_back(slice(ref(n(*workItems_, "data")), 64 * d + 63, 64 * d));
    // A compute unit's work-items come from its part of the range: the NDRange's own inputs serve
    // only get_global_size and get_global_offset.
    if (k_.computeUnits > 1)
      for (unsigned d = 0; d < 3; ++d) {
        if (!globalOffsetRead_[d])
          bits.push_back(ref("global_offset_" + std::to_string(d)));
        if (!globalSizeRead_[d])
          bits.push_back(ref("global_size_" + std::to_string(d)));
      }
    for (unsigned i = 0; i < k_.numArgs; ++i) {
      auto arg = ref("arg_" + std::to_string(i));
      if (argBitsUsed_[i] == 0)
        bits.push_back(arg);
      else if (argBitsUsed_[i] < argBits(i))
        bits.push_back(slice(arg, argBits(i) - 1, argBitsUsed_[i]));
    }
    // Values that only order others (a load's result as a memory-ordering token) carry unread data,
    // and a value only ever sliced (a lane, a narrower integer) has bits no one reads.
    for (NodeId id = 0; id < boost::num_vertices(g_); ++id) {
      const Node &node = g_[id];
      if (!node.width || node.kind == OpKind::WorkItems || !data_.count(id))
        continue;
      llvm::BitVector read(node.width);
      for (auto [e, end] = boost::out_edges(id, g_); e != end; ++e) {
        const Node &consumer = g_[boost::target(*e, g_)];
        const unsigned operand = g_[*e].operand;
        if (!readsData(consumer, operand))
          continue;
        const auto [lo, hi] = bitsRead(consumer, operand, node);
        read.set(lo, hi);
        // An inserted lane replaces bits [constant, constant + lane width) of the vector it starts from.
        if (consumer.kind == OpKind::InsertLane && operand == 0) {
          const unsigned lane = g_[k_.operands(boost::target(*e, g_))[1]].width;
          read.reset(unsigned(consumer.constant), unsigned(consumer.constant) + lane);
        }
      }
      if (read.none()) {
        bits.push_back(data(id));
        continue;
      }
      // Each run of unread bits, from the top.
      for (int hi = int(node.width) - 1; hi >= 0;) {
        if (read.test(unsigned(hi))) {
          --hi;
          continue;
        }
        int lo = hi;
        while (lo > 0 && !read.test(unsigned(lo - 1)))
          --lo;
        bits.push_back(slice(data(id), unsigned(hi), unsigned(lo)));
        hi = lo - 1;
      }
    }
    bits.insert(bits.end(), unusedBits_.begin(), unusedBits_.end());
    if (!bits.empty())
      m_.wire("unused_arg_bits", 1, unary("^", concat(bits)));
  }

  const KernelGraph &k_;
  const Graph &g_;
  Module m_;
  std::map<NodeId, ExprRef> data_;
  std::vector<unsigned> argBitsUsed_;
  std::optional<NodeId> workItems_;
  /// The drained outputs of the posted store ports (Node::posted), which the completion waits for.
  std::vector<ExprRef> postedDrained_;
  /// Ports given out so far, per memory and bank.
  std::vector<std::vector<OnChipMemory::Ports>> ramPorts_;
  /// By shared memory port (memory, port): its reads in the graph's order, each with its index.
  std::map<std::pair<unsigned, unsigned>, std::vector<std::pair<NodeId, ExprRef>>> sharedReads_;
  /// Bits no one reads, beside those consumeUnusedInputs finds (idle memory ports).
  std::vector<ExprRef> unusedBits_;
  /// Per pipe access sharing its port's signals with later ones: those it yields to.
  std::map<NodeId, std::vector<NodeId>> pipeRivals_;
  /// The pipe accesses an earlier one yields to: they drive a request wire.
  std::set<NodeId> pipeRequests_;
  /// An access driving a pipe port output: when it takes the port, and its value (null: the firing
  /// signal itself).
  struct PipeDriver {
    ExprRef takes, value;
  };
  /// Per pipe port output (s<i>_push, s<i>_data, ...), its drivers.
  std::map<std::string, std::vector<PipeDriver>> pipeDrivers_;
  /// By store port: the forwarding queues' wires.
  std::map<unsigned, ForwardQueue> forwardQueues_;
  bool gidDimsUsed_[3] = {false, false, false};
  /// The global_offset_<d> and global_size_<d> inputs read.
  bool globalOffsetRead_[3] = {false, false, false}, globalSizeRead_[3] = {false, false, false};
};

} // namespace

verilog::Module emitVerilog(const KernelGraph &kernel, const std::string &topModule) {
  return Emitter(kernel, topModule).emit();
}

} // namespace loom::hls

//===- AreaEstimate.cpp - A kernel's LUTs, FFs, DSPs and RAM blocks ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Structural: what each node, buffer and memory maps to under yosys synth_xilinx, counted from the
// scheduled graph (the report's estimate beside the board's budget).
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace loom::hls {

/// A buffer of `entries` words of `bits` (a FIFO's circular buffer, a memory port's responses), as
/// synth_xilinx maps one: two entries in flip-flops; under 8 Kbit in LUT RAM (RAM64M/RAM32M: 192
/// bits in 4 LUTs), else in block RAM (512 x 72 a block); beside a registered output and pointers.
void addBuffer(AreaEstimate &area, uint64_t bits, uint64_t entries) {
  if (entries <= 2) {
    area.ffs += bits * entries;
    return;
  }
  const uint64_t storage = bits * entries;
  if (storage < 8192)
    area.luts += (storage + 47) / 48;
  else
    area.rams += (bits + 71) / 72 * ((entries + 511) / 512);
  area.ffs += bits + 2 * llvm::Log2_64_Ceil(entries + 1);
}

/// Structural area estimate: register bits, operator bits and multipliers.
AreaEstimate estimateArea(const KernelGraph &kernel) {
  AreaEstimate area;
  for (NodeId id = 0; id < boost::num_vertices(kernel.graph); ++id) {
    const Node &n = kernel.graph[id];
    if (n.isStatic)
      continue;
    unsigned bits = std::max(1u, n.width);
    // A global memory port's latency is the memory's: its buffer is counted by its credits below.
    const bool globalPort = n.kind == OpKind::Load || n.kind == OpKind::Store || n.kind == OpKind::Atomic;
    if (n.kind == OpKind::Fifo)
      addBuffer(area, bits, n.depth);
    else if (!globalPort)
      area.ffs += uint64_t(bits) * n.latency;
    // Wiring costs nothing (a wide packet gathered from 32-bit lanes is hundreds of lane inserts),
    // nor does a steer's data, which it passes through: only its valid and ready gates; every
    // other operator is counted at a LUT per result bit.
    if (n.kind == OpKind::Steer)
      area.luts += 2;
    else if (!isWiring(kernel, id))
      area.luts += bits;
    // A read of a shared port drives its address multiplexer: a LUT per address bit.
    if (n.kind == OpKind::RamLoad && kernel.memories[n.index].readsShared)
      area.luts += kernel.memories[n.index].bankIndexBits();
    if (n.kind == OpKind::FMul)
      area.dsps += 1;
    if (n.kind == OpKind::Mul) {
      // A DSP multiplies 18-bit pieces; a factor zero-extended from fewer bits has fewer of them.
      auto pieces = [&](NodeId factor) {
        const Node &f = kernel.graph[factor];
        const unsigned factorBits =
            f.kind == OpKind::ZExt ? kernel.graph[kernel.operands(factor)[0]].width
            : f.kind == OpKind::Constant ? std::max(1u, unsigned(llvm::Log2_64(f.constant | 1)) + 1)
                                         : f.width;
        return (std::min(factorBits, bits) + 17) / 18;
      };
      const auto factors = kernel.operands(id);
      area.dsps += pieces(factors[0]) * pieces(factors[1]);
    }
    // Float units' logic beyond one LUT per result bit, from yosys synth_xilinx of the RTL library.
    if (n.kind == OpKind::FAdd || n.kind == OpKind::FSub)
      area.luts += 400;
    if (n.kind == OpKind::FDiv)
      area.luts += 1250;
    if (n.kind == OpKind::FSqrt)
      area.luts += 670;
    // loom_idiv: a WIDTH-bit subtract and select per quotient bit (synth_xilinx at 32 / 64 bits,
    // latency 34: 2,150 / 8,400 LUTs), and stage registers that carry the partial remainder beside
    // the quotient (2,090 / 4,210 FFs).
    if (n.kind == OpKind::UDiv || n.kind == OpKind::SDiv || n.kind == OpKind::URem || n.kind == OpKind::SRem) {
      area.luts += 2 * uint64_t(bits) * bits;
      area.ffs += uint64_t(bits) * std::min(n.latency, bits);
    }
    const bool lineLoad = n.kind == OpKind::Load && kernel.ports[n.index].lines();
    if (globalPort && !lineLoad)
      addBuffer(area, bits, n.depth);
    // A forwarding queue's entries: address, data and state, and an address comparator each.
    if (n.kind == OpKind::StoreAddress) {
      const Node &store = kernel.graph[*llvm::find_if(llvm::make_range(boost::vertices(kernel.graph)), [&](NodeId s) {
        return kernel.graph[s].kind == OpKind::Store && kernel.graph[s].index == n.index;
      })];
      const uint64_t entries = forwardingEntries(store, n), dataBits = kernel.ports[n.index].bytes * 8;
      area.ffs += entries * (64 + dataBits + 8);
      area.luts += entries * (64 / 4 + dataBits);
    }
    // A line port's buffers: a line load's element tags (each its index in a line and whether it
    // brings a new line), its lines and the line it serves from; a line store's line and strobes.
    if ((n.kind == OpKind::Load || n.kind == OpKind::Store) && kernel.ports[n.index].lines()) {
      const MemoryPort &port = kernel.ports[n.index];
      const uint64_t lineBits = port.bytes * 8;
      if (lineLoad) {
        addBuffer(area, llvm::Log2_32(port.bytes / port.elementBytes) + 1, n.depth);
        addBuffer(area, lineBits, lineBuffers(kernel, id));
      }
      area.ffs += lineBits + (lineLoad ? 0 : lineBits / 8);
      area.luts += lineBits; // the element's multiplexer or the line's write enables
    }
  }
  for (const OnChipMemory &memory : kernel.memories) {
    const AreaEstimate ram = memoryArea(memory);
    area.luts += ram.luts;
    area.rams += ram.rams;
  }
  return area;
}

unsigned blockRamPorts(const OnChipMemory &memory) { return memory.doublePumped ? 4 : 2; }

AreaEstimate memoryArea(const OnChipMemory &memory) {
  // Each bank is a memory of its own. A block RAM has two ports (four when double-pumped): a memory
  // with more reads is replicated, one copy per two (four) reads (every copy takes every write). A
  // memory of under a sixteenth of a block goes to LUT RAM instead (64 bits a LUT, a copy per
  // read), as synthesis tools place small arrays (a partitioned array's banks).
  constexpr uint64_t BlockRamBits = 36 * 1024, LutRamBits = 64;
  AreaEstimate area;
  const uint64_t bits = memory.bankDepth() * memory.elementBytes * 8;
  for (const OnChipMemory::Ports &bank : memory.banks) {
    if (bits < BlockRamBits / 16)
      area.luts += (bits + LutRamBits - 1) / LutRamBits * std::max(1u, bank.reads);
    else
      area.rams += (bits + BlockRamBits - 1) / BlockRamBits *
                   std::max(1u, (bank.reads + blockRamPorts(memory) - 1) / blockRamPorts(memory));
  }
  return area;
}

} // namespace loom::hls

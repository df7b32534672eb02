//===- EmitComputeUnits.cpp - A kernel's top module over its compute units -===//
// SPDX-License-Identifier: Apache-2.0
//
// num_compute_units(N) asks for N copies of a kernel's hardware that share its NDRange. The kernel's
// graph is emitted once, as a unit module whose work-item generator and completion counter take
// their part of the range from unit_<field>_<d> inputs (UnitShareFields); the top module keeps
// HardwareKernel's interface and instantiates N units. It gives every unit the start pulse, the
// arguments and the NDRange (get_global_size and friends are the NDRange's), unit u the 12
// arguments after the kernel's own that say its part (computeUnitShares: the launch deals out the
// work-groups, as the host's driver writes any other argument), and its own memory ports: the
// unit's port p is the top's port u * P + p. The kernel is done when every unit is.
//===----------------------------------------------------------------------===//
#include "loom/hls/HardwareKernel.h"
#include "passes/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace loom::hls {

using namespace verilog;

verilog::Module emitComputeUnits(const KernelGraph &kernel, const verilog::Module &unit, const std::string &topModule) {
  Module top(topModule);
  const unsigned units = kernel.computeUnits, ports = kernel.ports.size();
  top.addPort(Direction::Input, "clk");
  top.addPort(Direction::Input, "rst");
  top.addPort(Direction::Input, "start");
  top.addPort(Direction::Output, "done");
  top.addPort(Direction::Output, "retired");
  for (unsigned i = 0; i < kernel.numArgs + ComputeUnitShareArgs * units; ++i) {
    top.addPort(Direction::Input, "arg_" + std::to_string(i), kernel.argBytes(i) * 8);
  }
  for (unsigned d = 0; d < 3; ++d) {
    top.addPort(Direction::Input, "global_offset_" + std::to_string(d), 64);
    top.addPort(Direction::Input, "global_size_" + std::to_string(d), 64);
  }
  // The unit's memory port "m<p>_<signal>" as unit u's port in the top module, else None.
  auto memoryPort = [&](llvm::StringRef name, unsigned u) -> llvm::Optional<std::string> {
    unsigned p = 0;
    auto [number, signal] = name.drop_front().split('_');
    if (!name.startswith("m") || number.getAsInteger(10, p) || signal.empty())
      return llvm::None;
    return llvm::formatv("m{0}_{1}", u * ports + p, signal).str();
  };
  for (unsigned u = 0; u < units; ++u)
    for (const Port &port : unit.ports())
      if (auto name = memoryPort(port.name, u))
        top.addPort(port.direction, *name, port.width);

  std::vector<ExprRef> done, retired;
  for (unsigned u = 0; u < units; ++u) {
    std::vector<std::pair<std::string, ExprRef>> connections;
    for (const Port &port : unit.ports()) {
      llvm::StringRef name = port.name;
      ExprRef to;
      if (auto memory = memoryPort(name, u)) {
        to = ref(*memory);
      } else if (name == "done") {
        to = top.wire(llvm::formatv("unit{0}_done", u).str());
        done.push_back(to);
      } else if (name == "retired") {
        to = top.wire(llvm::formatv("unit{0}_retired", u).str());
        retired.push_back(to);
      } else if (name.consume_front("unit_")) {
        // <field>_<d>: that argument of the unit's share.
        const unsigned d = name.back() - '0';
        const auto field = llvm::find(UnitShareFields, name.drop_back(2)) - std::begin(UnitShareFields);
        to = ref("arg_" + std::to_string(kernel.numArgs + ComputeUnitShareArgs * u + 3 * field + d));
      } else {
        to = ref(port.name); // clk, rst, start, the arguments and the NDRange
      }
      connections.push_back({port.name, to});
    }
    top.instance(unit.name(), "unit" + std::to_string(u), {}, connections);
  }
  top.assign(ref("done"), unary("&", concat(done)));
  top.assign(ref("retired"), unary("|", concat(retired)));
  return top;
}

} // namespace loom::hls

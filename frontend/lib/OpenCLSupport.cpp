//===- OpenCLSupport.cpp - What OpenCL each compile target's device supports ===//
// SPDX-License-Identifier: Apache-2.0
//
// Both devices implement OpenCL 3.0 with OpenCL C 1.0 to 1.2 and 3.0 (not 2.0, whose pipes, generic
// address space, device-side enqueue and images are all required). An entry here is a promise the
// tests keep: the CPU device's sub-groups and work-group functions (runtime/devices/cpu), the
// 32- and 64-bit atomics of both (frontend/builtins/atomic.cl; atomic ports in hls/), the pipes of
// both (the CPU device's pipe builtins; on the board, read_pipe and write_pipe as the stream ports of
// hls/, the other pipe functions a build error there yet), the generic address space of both (which
// Clang requires for pipes; on the CPU any pointer: its memories are all the host's; the board's are
// separate, and a generic pointer there must come from one named space, which hls/ must see, as
// Intel's aoc requires: one that may point into two is a build error at its access).
//===----------------------------------------------------------------------===//
#include "loom/frontend/OpenCLSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace loom::frontend {
namespace {

const std::vector<NamedVersion> AtomicsExtensions = {
    {"cl_khr_byte_addressable_store"},       {"cl_khr_global_int32_base_atomics"},
    {"cl_khr_global_int32_extended_atomics"}, {"cl_khr_local_int32_base_atomics"},
    {"cl_khr_local_int32_extended_atomics"}, {"cl_khr_int64_base_atomics"},
    {"cl_khr_int64_extended_atomics"},
};

std::vector<NamedVersion> withAtomics(std::vector<NamedVersion> more) {
  std::vector<NamedVersion> all = AtomicsExtensions;
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

OpenCLSupport makeSupport(std::vector<NamedVersion> extensions, std::vector<llvm::StringRef> featureNames) {
  OpenCLSupport support;
  support.version = {"OpenCL", 3, 0, 0};
  support.languages = {{"OpenCL C", 1, 0, 0}, {"OpenCL C", 1, 1, 0}, {"OpenCL C", 1, 2, 0}, {"OpenCL C", 3, 0, 0}};
  support.extensions = std::move(extensions);
  for (llvm::StringRef name : featureNames)
    support.features.push_back({name, 3, 0, 0});
  return support;
}

/// Every extension and feature macro Clang 15 may define for OpenCL C: those -cl-ext switches
/// (clang/Basic/OpenCLExtensions.def) and those its opencl-c-base.h defines for every SPIR target, or
/// for every OpenCL C 2.0 compile, whatever the device. __opencl_c_int64 is not here: every
/// full-profile device has it.
constexpr llvm::StringLiteral ClangMacros[] = {
    "cl_khr_fp64", "cl_khr_fp16", "cl_khr_3d_image_writes", "cl_khr_depth_images",
    "cl_khr_gl_msaa_sharing", "cl_khr_mipmap_image", "cl_khr_mipmap_image_writes",
    "cl_khr_srgb_image_writes", "cl_khr_subgroups", "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate",
    "cl_khr_extended_bit_ops", "cl_khr_integer_dot_product", "cl_ext_float_atomics",
    "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
    "__opencl_c_integer_dot_product_input_4x8bit", "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_ext_fp16_global_atomic_load_store", "__opencl_c_ext_fp16_local_atomic_load_store",
    "__opencl_c_ext_fp16_global_atomic_add", "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp16_global_atomic_min_max", "__opencl_c_ext_fp16_local_atomic_min_max",
    "__opencl_c_ext_fp32_global_atomic_add", "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max", "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_ext_fp64_global_atomic_add", "__opencl_c_ext_fp64_local_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_min_max", "__opencl_c_ext_fp64_local_atomic_min_max",
    "__opencl_c_pipes", "__opencl_c_generic_address_space", "__opencl_c_work_group_collective_functions",
    "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices", "__opencl_c_subgroups", "__opencl_c_3d_image_writes",
    "__opencl_c_device_enqueue", "__opencl_c_read_write_images",
    "__opencl_c_program_scope_global_variables", "__opencl_c_fp64", "__opencl_c_images",
};

constexpr llvm::StringLiteral GenericAddressSpace = "__opencl_c_generic_address_space";

bool contains(const std::vector<NamedVersion> &list, llvm::StringRef name) {
  return llvm::any_of(list, [&](const NamedVersion &entry) { return entry.name == name; });
}

} // namespace

bool OpenCLSupport::hasFeature(llvm::StringRef name) const { return contains(features, name); }

std::string OpenCLSupport::extensionString() const {
  return llvm::join(llvm::map_range(extensions, [](const NamedVersion &e) { return e.name; }), " ");
}

const OpenCLSupport &openclSupport(Target target) {
  // Sub-groups on both (of different sizes: DeviceInfo::subGroupSize); cl_khr_subgroups only on the
  // CPU, as it requires sub-groups that make independent forward progress: the board runs a
  // work-group's work-items through one pipeline in order, and one waiting in a loop for a later one
  // would wait for ever. The CPU's atomics are x86's
  // locked instructions, sequentially consistent for the whole device and its host; the board's
  // atomic port promises no order with the other ports' accesses, so only the minimum, relaxed
  // atomics of a work-group's scope, which every device has.
  static const std::vector<llvm::StringRef> common = {"__opencl_c_int64", "__opencl_c_subgroups",
                                                      "__opencl_c_work_group_collective_functions",
                                                      "__opencl_c_pipes", GenericAddressSpace};
  // Both take Intel's channels in both spellings (ProgramScopeFifos.h).
  static const std::vector<NamedVersion> channels = {{"cl_intel_channels"}, {"cl_altera_channels"}};
  static const OpenCLSupport board = makeSupport(withAtomics(channels), common);
  static const OpenCLSupport cpu = [] {
    std::vector<llvm::StringRef> features = common;
    features.insert(features.end(), {"__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
                                     "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
                                     "__opencl_c_program_scope_global_variables"});
    std::vector<NamedVersion> extensions = channels;
    extensions.push_back({"cl_khr_subgroups"});
    return makeSupport(withAtomics(extensions), features);
  }();
  return target == Target::Host ? cpu : board;
}

std::string openclPrelude(const OpenCLSupport &support) {
  // Clang 15 predefines the extension macros -cl-ext enables but not the features' (bar
  // __opencl_c_int64), and its opencl-c-base.h declares what a feature brings (memory_order_seq_cst,
  // memory_scope_all_devices, ...) only where the feature's macro is defined: the device's macros
  // come first, then that header, then the #undef of what the header defines for every SPIR target
  // or OpenCL C 2.0 compile that the device lacks. Clang declares builtins (work_group_reduce_add,
  // get_sub_group_id, ...) only where their macros are defined, the sub-group ones under a macro of
  // its header's own.
  auto define = [](llvm::StringRef name) {
    return "#ifndef " + name.str() + "\n#define " + name.str() + " 1\n#endif\n";
  };
  std::string prelude = "#define __OPENCL_VERSION__ " +
                        std::to_string(support.version.major * 100 + support.version.minor * 10) + "\n";
  for (const NamedVersion &extension : support.extensions)
    prelude += define(extension.name);
  prelude += "#if __OPENCL_C_VERSION__ >= 300\n";
  for (const NamedVersion &feature : support.features)
    prelude += define(feature.name);
  prelude += "#endif\n#include <opencl-c-base.h>\n";
  for (llvm::StringRef macro : ClangMacros) {
    if (contains(support.extensions, macro) || contains(support.features, macro))
      continue;
    // OpenCL C 2.0 has the generic address space in its core, and Clang declares the builtins with
    // pointer operands (vloadn, fract, ...) for it only where the macro is defined.
    if (macro == GenericAddressSpace)
      prelude += "#if __OPENCL_C_VERSION__ != 200\n#undef " + macro.str() + "\n#endif\n";
    else
      prelude += "#undef " + macro.str() + "\n";
  }
  if (contains(support.extensions, "cl_khr_subgroups") || contains(support.features, "__opencl_c_subgroups"))
    prelude += define("__opencl_subgroup_builtins");
  return prelude;
}

std::string clangExtensionOption(const OpenCLSupport &support) {
  std::string option = "-cl-ext=-all";
  for (const auto *list : {&support.extensions, &support.features})
    for (const NamedVersion &entry : *list)
      option += ",+" + entry.name.str();
  return option;
}

} // namespace loom::frontend

; SPDX-License-Identifier: Apache-2.0
; atom_min and atom_max on long and ulong (cl_khr_int64_extended_atomics) for spir64, in LLVM IR:
; Clang 15 has no builtin that makes a 64-bit atomicrmw min/max there (atomic.cl explains), so these
; twelve are written as the instruction itself and linked into the spir64 library by
; frontend/CMakeLists.txt. The host library gets them from atomic.cl (__atomic_fetch_min/max).
; Mangled as Clang mangles the calls: P U3AS1 (__global) / U3AS3 (__local) / U3AS4 (generic, for
; atomic_c11.cl's generic forms) V (volatile) l / m.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

define spir_func i64 @_Z16loom_seq_cst_minPU3AS1Vll(i64 addrspace(1)* %p, i64 %v) #0 {
  %old = atomicrmw min i64 addrspace(1)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_maxPU3AS1Vll(i64 addrspace(1)* %p, i64 %v) #0 {
  %old = atomicrmw max i64 addrspace(1)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_minPU3AS1Vmm(i64 addrspace(1)* %p, i64 %v) #0 {
  %old = atomicrmw umin i64 addrspace(1)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_maxPU3AS1Vmm(i64 addrspace(1)* %p, i64 %v) #0 {
  %old = atomicrmw umax i64 addrspace(1)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_minPU3AS3Vll(i64 addrspace(3)* %p, i64 %v) #0 {
  %old = atomicrmw min i64 addrspace(3)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_maxPU3AS3Vll(i64 addrspace(3)* %p, i64 %v) #0 {
  %old = atomicrmw max i64 addrspace(3)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_minPU3AS3Vmm(i64 addrspace(3)* %p, i64 %v) #0 {
  %old = atomicrmw umin i64 addrspace(3)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_maxPU3AS3Vmm(i64 addrspace(3)* %p, i64 %v) #0 {
  %old = atomicrmw umax i64 addrspace(3)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_minPU3AS4Vll(i64 addrspace(4)* %p, i64 %v) #0 {
  %old = atomicrmw min i64 addrspace(4)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_maxPU3AS4Vll(i64 addrspace(4)* %p, i64 %v) #0 {
  %old = atomicrmw max i64 addrspace(4)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_minPU3AS4Vmm(i64 addrspace(4)* %p, i64 %v) #0 {
  %old = atomicrmw umin i64 addrspace(4)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}
define spir_func i64 @_Z16loom_seq_cst_maxPU3AS4Vmm(i64 addrspace(4)* %p, i64 %v) #0 {
  %old = atomicrmw umax i64 addrspace(4)* %p, i64 %v seq_cst, align 8
  ret i64 %old
}

attributes #0 = { alwaysinline nofree norecurse nounwind }

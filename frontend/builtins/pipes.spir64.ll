; SPDX-License-Identifier: Apache-2.0
; The work-group and sub-group pipe reservations (OpenCL C 2.0 section 6.13.16) for spir64, the
; hardware flow, in LLVM IR: OpenCL C cannot call Clang's __reserve_*_pipe with a pipe. The group's
; first work-item reserves with the work-item form and the others get its reservation through a
; reduction (CLK_NULL_RESERVE_ID is all ones, the largest); a commit waits at a barrier for every
; work-item's packets, then the first work-item commits. A sub-group's forms do the same among the
; sub-group's work-items (its first reserves, a sub-group reduction, a sub-group barrier).
; The work-item forms stay calls, which hls/passes/LowerPipeCalls.cpp makes the pipe port's
; reservations; the host library's forms are pipes.host.ll.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

%opencl.pipe_ro_t = type opaque
%opencl.pipe_wo_t = type opaque
%opencl.reserve_id_t = type opaque

declare spir_func %opencl.reserve_id_t* @__reserve_read_pipe(%opencl.pipe_ro_t addrspace(1)*, i32, i32, i32)
declare spir_func %opencl.reserve_id_t* @__reserve_write_pipe(%opencl.pipe_wo_t addrspace(1)*, i32, i32, i32)
declare spir_func void @__commit_read_pipe(%opencl.pipe_ro_t addrspace(1)*, %opencl.reserve_id_t*, i32, i32)
declare spir_func void @__commit_write_pipe(%opencl.pipe_wo_t addrspace(1)*, %opencl.reserve_id_t*, i32, i32)
declare spir_func i64 @_Z19get_local_linear_idv()
declare spir_func i64 @_Z21work_group_reduce_maxm(i64)
declare spir_func void @_Z18work_group_barrierj(i32)
declare spir_func i32 @_Z22get_sub_group_local_idv()
declare spir_func i64 @_Z20sub_group_reduce_maxm(i64)
declare spir_func void @_Z17sub_group_barrierj(i32)

; Whether the work-item is the first of its work-group, or of its sub-group.
define spir_func i1 @__loom_first_in_work_group() #0 {
  %id = call spir_func i64 @_Z19get_local_linear_idv()
  %first = icmp eq i64 %id, 0
  ret i1 %first
}
define spir_func i1 @__loom_first_in_sub_group() #0 {
  %id = call spir_func i32 @_Z22get_sub_group_local_idv()
  %first = icmp eq i32 %id, 0
  ret i1 %first
}
; Every work-item's share of the reservation `mine` (the first work-item's; null for the others).
define spir_func %opencl.reserve_id_t* @__loom_work_group_reservation(%opencl.reserve_id_t* %mine) #0 {
  %position = ptrtoint %opencl.reserve_id_t* %mine to i64
  %group = call spir_func i64 @_Z21work_group_reduce_maxm(i64 %position)
  %id = inttoptr i64 %group to %opencl.reserve_id_t*
  ret %opencl.reserve_id_t* %id
}
define spir_func %opencl.reserve_id_t* @__loom_sub_group_reservation(%opencl.reserve_id_t* %mine) #0 {
  %position = ptrtoint %opencl.reserve_id_t* %mine to i64
  %group = call spir_func i64 @_Z20sub_group_reduce_maxm(i64 %position)
  %id = inttoptr i64 %group to %opencl.reserve_id_t*
  ret %opencl.reserve_id_t* %id
}

; The first work-item's reservation (`first`), null for the others; and its commit.
define spir_func %opencl.reserve_id_t* @__loom_first_reserves_read(%opencl.pipe_ro_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align, i1 %first) #0 {
entry:
  br i1 %first, label %reserve, label %done
reserve:
  %reserved = call spir_func %opencl.reserve_id_t* @__reserve_read_pipe(%opencl.pipe_ro_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align)
  br label %done
done:
  %mine = phi %opencl.reserve_id_t* [ %reserved, %reserve ], [ null, %entry ]
  ret %opencl.reserve_id_t* %mine
}
define spir_func %opencl.reserve_id_t* @__loom_first_reserves_write(%opencl.pipe_wo_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align, i1 %first) #0 {
entry:
  br i1 %first, label %reserve, label %done
reserve:
  %reserved = call spir_func %opencl.reserve_id_t* @__reserve_write_pipe(%opencl.pipe_wo_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align)
  br label %done
done:
  %mine = phi %opencl.reserve_id_t* [ %reserved, %reserve ], [ null, %entry ]
  ret %opencl.reserve_id_t* %mine
}
define spir_func void @__loom_first_commits_read(%opencl.pipe_ro_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align, i1 %first) #0 {
entry:
  br i1 %first, label %commit, label %done
commit:
  call spir_func void @__commit_read_pipe(%opencl.pipe_ro_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align)
  br label %done
done:
  ret void
}
define spir_func void @__loom_first_commits_write(%opencl.pipe_wo_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align, i1 %first) #0 {
entry:
  br i1 %first, label %commit, label %done
commit:
  call spir_func void @__commit_write_pipe(%opencl.pipe_wo_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align)
  br label %done
done:
  ret void
}

define spir_func %opencl.reserve_id_t* @__work_group_reserve_read_pipe(%opencl.pipe_ro_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align) #0 {
  %first = call spir_func i1 @__loom_first_in_work_group()
  %mine = call spir_func %opencl.reserve_id_t* @__loom_first_reserves_read(%opencl.pipe_ro_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align, i1 %first)
  %id = call spir_func %opencl.reserve_id_t* @__loom_work_group_reservation(%opencl.reserve_id_t* %mine)
  ret %opencl.reserve_id_t* %id
}
define spir_func %opencl.reserve_id_t* @__work_group_reserve_write_pipe(%opencl.pipe_wo_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align) #0 {
  %first = call spir_func i1 @__loom_first_in_work_group()
  %mine = call spir_func %opencl.reserve_id_t* @__loom_first_reserves_write(%opencl.pipe_wo_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align, i1 %first)
  %id = call spir_func %opencl.reserve_id_t* @__loom_work_group_reservation(%opencl.reserve_id_t* %mine)
  ret %opencl.reserve_id_t* %id
}
; CLK_GLOBAL_MEM_FENCE (2): the packets' reads and writes are done before the commit.
define spir_func void @__work_group_commit_read_pipe(%opencl.pipe_ro_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align) #0 {
  call spir_func void @_Z18work_group_barrierj(i32 2)
  %first = call spir_func i1 @__loom_first_in_work_group()
  call spir_func void @__loom_first_commits_read(%opencl.pipe_ro_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align, i1 %first)
  ret void
}
define spir_func void @__work_group_commit_write_pipe(%opencl.pipe_wo_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align) #0 {
  call spir_func void @_Z18work_group_barrierj(i32 2)
  %first = call spir_func i1 @__loom_first_in_work_group()
  call spir_func void @__loom_first_commits_write(%opencl.pipe_wo_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align, i1 %first)
  ret void
}
define spir_func %opencl.reserve_id_t* @__sub_group_reserve_read_pipe(%opencl.pipe_ro_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align) #0 {
  %first = call spir_func i1 @__loom_first_in_sub_group()
  %mine = call spir_func %opencl.reserve_id_t* @__loom_first_reserves_read(%opencl.pipe_ro_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align, i1 %first)
  %id = call spir_func %opencl.reserve_id_t* @__loom_sub_group_reservation(%opencl.reserve_id_t* %mine)
  ret %opencl.reserve_id_t* %id
}
define spir_func %opencl.reserve_id_t* @__sub_group_reserve_write_pipe(%opencl.pipe_wo_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align) #0 {
  %first = call spir_func i1 @__loom_first_in_sub_group()
  %mine = call spir_func %opencl.reserve_id_t* @__loom_first_reserves_write(%opencl.pipe_wo_t addrspace(1)* %p, i32 %packets, i32 %size, i32 %align, i1 %first)
  %id = call spir_func %opencl.reserve_id_t* @__loom_sub_group_reservation(%opencl.reserve_id_t* %mine)
  ret %opencl.reserve_id_t* %id
}
; CLK_GLOBAL_MEM_FENCE (2): the packets' reads and writes are done before the commit.
define spir_func void @__sub_group_commit_read_pipe(%opencl.pipe_ro_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align) #0 {
  call spir_func void @_Z17sub_group_barrierj(i32 2)
  %first = call spir_func i1 @__loom_first_in_sub_group()
  call spir_func void @__loom_first_commits_read(%opencl.pipe_ro_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align, i1 %first)
  ret void
}
define spir_func void @__sub_group_commit_write_pipe(%opencl.pipe_wo_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align) #0 {
  call spir_func void @_Z17sub_group_barrierj(i32 2)
  %first = call spir_func i1 @__loom_first_in_sub_group()
  call spir_func void @__loom_first_commits_write(%opencl.pipe_wo_t addrspace(1)* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align, i1 %first)
  ret void
}
attributes #0 = { alwaysinline nounwind }

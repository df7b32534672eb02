; SPDX-License-Identifier: Apache-2.0
; The pipe functions Clang 15 calls for read_pipe, write_pipe, reserve_*_pipe, commit_*_pipe, their
; work-group and sub-group forms, get_pipe_num_packets, get_pipe_max_packets and is_valid_reserve_id
; (OpenCL C 2.0 section 6.13.16), for the CPU device, in LLVM IR: OpenCL C can neither take a pipe's
; address nor make a reserve_id_t of a number. A pipe is a pointer to its storage
; (runtime/core/PipeStorage.h), a reservation the position of its first packet (CLK_NULL_RESERVE_ID:
; all ones). The CPU device's __loom_pipe_* functions (runtime/devices/cpu/PipeOperations.cpp) do the
; work, pipes.cl the group forms. Clang passes each packet's size and alignment; _ro and _wo name the
; pipe's access. The waiting ones pass call site 0, which the CPU device numbers
; (runtime/devices/cpu/PipeCallSites.h).
%opencl.pipe_ro_t = type opaque
%opencl.pipe_wo_t = type opaque
%opencl.reserve_id_t = type opaque

declare i32 @__loom_pipe_read(i8*, i8*, i32, i32)
declare i32 @__loom_pipe_write(i8*, i8*, i32, i32)
declare i64 @__loom_pipe_reserve(i8*, i32, i32, i32)
declare void @__loom_pipe_commit(i8*, i64, i32)
declare i32 @__loom_pipe_access(i8*, i64, i32, i8*, i32, i32)
declare i32 @__loom_pipe_packets(i8*)
declare i32 @__loom_pipe_capacity(i8*)
declare i64 @__loom_work_group_reserve(i8*, i32, i32)
declare void @__loom_work_group_commit(i8*, i64, i32)
declare i64 @__loom_sub_group_reserve(i8*, i32, i32)
declare void @__loom_sub_group_commit(i8*, i64, i32)


define i32 @__read_pipe_2(%opencl.pipe_ro_t* %p, i8* %packet, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_ro_t* %p to i8*
  %status = call i32 @__loom_pipe_read(i8* %pipe, i8* %packet, i32 %size, i32 0)
  ret i32 %status
}
define i32 @__read_pipe_4(%opencl.pipe_ro_t* %p, %opencl.reserve_id_t* %id, i32 %index, i8* %packet, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_ro_t* %p to i8*
  %position = ptrtoint %opencl.reserve_id_t* %id to i64
  %status = call i32 @__loom_pipe_access(i8* %pipe, i64 %position, i32 %index, i8* %packet, i32 %size, i32 0)
  ret i32 %status
}
define %opencl.reserve_id_t* @__reserve_read_pipe(%opencl.pipe_ro_t* %p, i32 %packets, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_ro_t* %p to i8*
  %position = call i64 @__loom_pipe_reserve(i8* %pipe, i32 %packets, i32 0, i32 0)
  %id = inttoptr i64 %position to %opencl.reserve_id_t*
  ret %opencl.reserve_id_t* %id
}
define void @__commit_read_pipe(%opencl.pipe_ro_t* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_ro_t* %p to i8*
  %position = ptrtoint %opencl.reserve_id_t* %id to i64
  call void @__loom_pipe_commit(i8* %pipe, i64 %position, i32 0)
  ret void
}
define %opencl.reserve_id_t* @__work_group_reserve_read_pipe(%opencl.pipe_ro_t* %p, i32 %packets, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_ro_t* %p to i8*
  %position = call i64 @__loom_work_group_reserve(i8* %pipe, i32 %packets, i32 0)
  %id = inttoptr i64 %position to %opencl.reserve_id_t*
  ret %opencl.reserve_id_t* %id
}
define void @__work_group_commit_read_pipe(%opencl.pipe_ro_t* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_ro_t* %p to i8*
  %position = ptrtoint %opencl.reserve_id_t* %id to i64
  call void @__loom_work_group_commit(i8* %pipe, i64 %position, i32 0)
  ret void
}
define %opencl.reserve_id_t* @__sub_group_reserve_read_pipe(%opencl.pipe_ro_t* %p, i32 %packets, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_ro_t* %p to i8*
  %position = call i64 @__loom_sub_group_reserve(i8* %pipe, i32 %packets, i32 0)
  %id = inttoptr i64 %position to %opencl.reserve_id_t*
  ret %opencl.reserve_id_t* %id
}
define void @__sub_group_commit_read_pipe(%opencl.pipe_ro_t* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_ro_t* %p to i8*
  %position = ptrtoint %opencl.reserve_id_t* %id to i64
  call void @__loom_sub_group_commit(i8* %pipe, i64 %position, i32 0)
  ret void
}
define i32 @__get_pipe_num_packets_ro(%opencl.pipe_ro_t* %p, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_ro_t* %p to i8*
  %count = call i32 @__loom_pipe_packets(i8* %pipe)
  ret i32 %count
}
define i32 @__get_pipe_max_packets_ro(%opencl.pipe_ro_t* %p, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_ro_t* %p to i8*
  %count = call i32 @__loom_pipe_capacity(i8* %pipe)
  ret i32 %count
}

define i32 @__write_pipe_2(%opencl.pipe_wo_t* %p, i8* %packet, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_wo_t* %p to i8*
  %status = call i32 @__loom_pipe_write(i8* %pipe, i8* %packet, i32 %size, i32 0)
  ret i32 %status
}
define i32 @__write_pipe_4(%opencl.pipe_wo_t* %p, %opencl.reserve_id_t* %id, i32 %index, i8* %packet, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_wo_t* %p to i8*
  %position = ptrtoint %opencl.reserve_id_t* %id to i64
  %status = call i32 @__loom_pipe_access(i8* %pipe, i64 %position, i32 %index, i8* %packet, i32 %size, i32 1)
  ret i32 %status
}
define %opencl.reserve_id_t* @__reserve_write_pipe(%opencl.pipe_wo_t* %p, i32 %packets, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_wo_t* %p to i8*
  %position = call i64 @__loom_pipe_reserve(i8* %pipe, i32 %packets, i32 1, i32 0)
  %id = inttoptr i64 %position to %opencl.reserve_id_t*
  ret %opencl.reserve_id_t* %id
}
define void @__commit_write_pipe(%opencl.pipe_wo_t* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_wo_t* %p to i8*
  %position = ptrtoint %opencl.reserve_id_t* %id to i64
  call void @__loom_pipe_commit(i8* %pipe, i64 %position, i32 1)
  ret void
}
define %opencl.reserve_id_t* @__work_group_reserve_write_pipe(%opencl.pipe_wo_t* %p, i32 %packets, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_wo_t* %p to i8*
  %position = call i64 @__loom_work_group_reserve(i8* %pipe, i32 %packets, i32 1)
  %id = inttoptr i64 %position to %opencl.reserve_id_t*
  ret %opencl.reserve_id_t* %id
}
define void @__work_group_commit_write_pipe(%opencl.pipe_wo_t* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_wo_t* %p to i8*
  %position = ptrtoint %opencl.reserve_id_t* %id to i64
  call void @__loom_work_group_commit(i8* %pipe, i64 %position, i32 1)
  ret void
}
define %opencl.reserve_id_t* @__sub_group_reserve_write_pipe(%opencl.pipe_wo_t* %p, i32 %packets, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_wo_t* %p to i8*
  %position = call i64 @__loom_sub_group_reserve(i8* %pipe, i32 %packets, i32 1)
  %id = inttoptr i64 %position to %opencl.reserve_id_t*
  ret %opencl.reserve_id_t* %id
}
define void @__sub_group_commit_write_pipe(%opencl.pipe_wo_t* %p, %opencl.reserve_id_t* %id, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_wo_t* %p to i8*
  %position = ptrtoint %opencl.reserve_id_t* %id to i64
  call void @__loom_sub_group_commit(i8* %pipe, i64 %position, i32 1)
  ret void
}
define i32 @__get_pipe_num_packets_wo(%opencl.pipe_wo_t* %p, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_wo_t* %p to i8*
  %count = call i32 @__loom_pipe_packets(i8* %pipe)
  ret i32 %count
}
define i32 @__get_pipe_max_packets_wo(%opencl.pipe_wo_t* %p, i32 %size, i32 %align) #0 {
  %pipe = bitcast %opencl.pipe_wo_t* %p to i8*
  %count = call i32 @__loom_pipe_capacity(i8* %pipe)
  ret i32 %count
}

define zeroext i1 @_Z19is_valid_reserve_id13ocl_reserveid(%opencl.reserve_id_t* %id) #0 {
  %position = ptrtoint %opencl.reserve_id_t* %id to i64
  %valid = icmp ne i64 %position, -1
  ret i1 %valid
}

attributes #0 = { alwaysinline nounwind }

// Kernels for clGetKernelSubGroupInfo (RuntimeBoardTest), built with -cl-std=CL3.0: one without
// barriers or collectives (its work-items stream through, in groups as large as the device's), and
// three that use sub-group functions (the board runs them a work-group at a time, in groups of at
// most 256 work-items without a required size), each writing what a work-item sees of its sub-group.

__kernel void copy(__global const uint *in, __global uint *out) {
  out[get_global_id(0)] = in[get_global_id(0)];
}

// Four words a work-item, at its global linear id: the largest sub-group, the group's sub-group count,
// its sub-group's id, and its sub-group's size as the sub-group counts it.
void record_sub_group(__global uint *out) {
  __global uint *mine = out + 4 * get_global_linear_id();
  mine[0] = get_max_sub_group_size();
  mine[1] = get_num_sub_groups();
  mine[2] = get_sub_group_id();
  mine[3] = sub_group_reduce_add(1u);
}

__kernel void sub_group_view(__global uint *out) {
  record_sub_group(out);
}

__attribute__((reqd_work_group_size(128, 1, 1))) __kernel void fixed_sub_group_view(__global uint *out) {
  record_sub_group(out);
}

__attribute__((reqd_work_group_size(8, 4, 4))) __kernel void cube_sub_group_view(__global uint *out) {
  record_sub_group(out);
}

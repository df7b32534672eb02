// SPDX-License-Identifier: Apache-2.0
// In qor.cl as it is; qor.py also builds it alone for the unit board, whose 2-cycle memory stands for
// the on-chip arrays of Dynamatic's published FIR figure.
// FIR filter, single work-item, the FPGA shift-register idiom: the window shifts by one sample per
// iteration (unrolled, it is a chain of registers), the taps are read once into registers. An output
// per input sample, the window starting at zero, as Xilinx's shift_register example has it.
#define FIR_TAPS 16
__attribute__((max_global_work_dim(0)))
__kernel void fir(__global const int *restrict x, __global const int *restrict coef,
                  __global int *restrict y, int n) {
  int window[FIR_TAPS], taps[FIR_TAPS];
  #pragma unroll
  for (int k = 0; k < FIR_TAPS; ++k) {
    window[k] = 0;
    taps[k] = coef[k];
  }
  for (int i = 0; i < n; ++i) {
    #pragma unroll
    for (int k = FIR_TAPS - 1; k > 0; --k)
      window[k] = window[k - 1];
    window[0] = x[i];
    int acc = 0;
    #pragma unroll
    for (int k = 0; k < FIR_TAPS; ++k)
      acc += taps[k] * window[FIR_TAPS - 1 - k];
    y[i] = acc;
  }
}

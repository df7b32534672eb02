// SPDX-License-Identifier: Apache-2.0
// Miscellaneous vector functions (OpenCL C 1.2 section 6.12.12): shuffle and shuffle2 on every
// integer type and float, from 2, 4, 8 or 16 lanes to 2, 4, 8 or 16 lanes. Only the low bits of a
// mask lane that can index the input (log2 of its lane count, one more for shuffle2's two inputs)
// are used, as the spec says. vec_step is Clang's own.

#define LOOM_SHUFFLE(S, U, M, N)                                                                   \
  LOOM_BUILTIN S##N shuffle(S##M x, U##N mask) {                                                   \
    S##N result;                                                                                   \
    for (int lane = 0; lane < N; ++lane)                                                           \
      result[lane] = x[mask[lane] & (M - 1)];                                                      \
    return result;                                                                                 \
  }                                                                                                \
  LOOM_BUILTIN S##N shuffle2(S##M x, S##M y, U##N mask) {                                          \
    S##N result;                                                                                   \
    for (int lane = 0; lane < N; ++lane) {                                                         \
      uint index = mask[lane] & (2 * M - 1);                                                       \
      result[lane] = index < M ? x[index] : y[index - M];                                          \
    }                                                                                              \
    return result;                                                                                 \
  }
#define LOOM_SHUFFLE_TO(S, U, M) LOOM_SHUFFLE(S, U, M, 2) LOOM_SHUFFLE(S, U, M, 4) LOOM_SHUFFLE(S, U, M, 8) LOOM_SHUFFLE(S, U, M, 16)
#define LOOM_SHUFFLES(S, U) LOOM_SHUFFLE_TO(S, U, 2) LOOM_SHUFFLE_TO(S, U, 4) LOOM_SHUFFLE_TO(S, U, 8) LOOM_SHUFFLE_TO(S, U, 16)
LOOM_SHUFFLES(char, uchar)
LOOM_SHUFFLES(uchar, uchar)
LOOM_SHUFFLES(short, ushort)
LOOM_SHUFFLES(ushort, ushort)
LOOM_SHUFFLES(int, uint)
LOOM_SHUFFLES(uint, uint)
LOOM_SHUFFLES(long, ulong)
LOOM_SHUFFLES(ulong, ulong)
LOOM_SHUFFLES(float, uint)

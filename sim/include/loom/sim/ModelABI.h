/*===- ModelABI.h - C ABI of a compiled simulation model (.so) ------------===*
 * SPDX-License-Identifier: Apache-2.0
 *
 * The Verilated kernels of one program are compiled, with a generated shim, into one shared object
 * (the .loom.model section). The board process and the bare benchmark harness drive it through these
 * C functions only, so the model's C++ never crosses the .so boundary. This header is embedded into
 * the generated shim source; keep it plain C.
 *
 * The model exports exactly these symbols, one per typedef below:
 *   loom_model_abi_version  loom_model_kernel_count  loom_model_kernel_name
 *   loom_model_create       loom_model_destroy       loom_model_start       loom_model_cycle
 * Everything else in the .so is hidden; libverilated's symbols stay undefined and resolve against the
 * loom_verilated library of the loading process.
 *===----------------------------------------------------------------------===*/
#ifndef LOOM_SIM_MODEL_ABI_H
#define LOOM_SIM_MODEL_ABI_H
#include <stdint.h>

#define LOOM_MODEL_ABI_VERSION 8u /* 4: pipe streams; 5: packets of up to 128 bytes; 6: pipe reservations;
                                     7: packets of up to 1024 bytes; 8: LOOM_CYCLE_RETIRED, arguments
                                     over 8 bytes in several words */

/* 64-bit words of a port's data: a request moves at most 64 bytes (a line of the board's memory). */
#define LOOM_PORT_WORDS 8

/* One memory port of a kernel, exchanged with loom_model_cycle every cycle. Data is little-endian:
 * byte b of a request is bits [8b+7:8b] of the port's data, in word b / 8. */
typedef struct LoomPort {
  /* Inputs, set by the board before the cycle. */
  uint8_t req_ready;
  uint8_t resp_valid;
  uint64_t resp_rdata[LOOM_PORT_WORDS]; /* load ports: the data; atomic ports: the old value */
  /* Outputs, set by loom_model_cycle: req_fire is 1 when a request was accepted at this cycle's edge. */
  uint8_t req_fire;
  uint64_t req_addr;
  uint64_t req_wdata[LOOM_PORT_WORDS]; /* store ports: the data; atomic ports: the operand (cmpxchg:
                                          the new value) */
  uint64_t req_cmp;    /* atomic cmpxchg ports: the compare value */
  uint64_t req_strobe; /* line store ports: the memory writes byte b only when bit b is set */
} LoomPort;

/* 64-bit words of a pipe's packet: at most 1024 bytes (OpenCL's minimum CL_DEVICE_PIPE_MAX_PACKET_SIZE). */
#define LOOM_PACKET_WORDS 128

/* Reads the packet at FIFO position `position` (low 32 bits) of the pipe `fifo` into `packet`
 * (LOOM_PACKET_WORDS words, little-endian like in_data): the FIFO RAM's asynchronous read port. */
typedef void (*LoomSlotReadFn)(void *fifo, uint32_t position, uint64_t *packet);

/* One pipe port of a kernel (HardwareKernel::pipePorts), exchanged with loom_model_cycle every cycle:
 * the board keeps the pipe's FIFO. Packets are little-endian like port data. A position is a packet's
 * number since the pipe was bound; these fields carry its low 32 bits. The model drives and reads only
 * the signal groups its port has (PipePort::transfers, reserves, slots, commits, queries); it sets the
 * outputs of the others to 0. A data field means something only when its fire flag is 1. */
typedef struct LoomStream {
  /* Inputs, set by the board before the cycle. Read pipes: a packet is offered, in in_data (the
   * FIFO's oldest). Write pipes: the FIFO has room for one more. */
  uint8_t available;
  uint64_t in_data[LOOM_PACKET_WORDS];
  uint32_t reservable;   /* packets a reservation may claim now: written ones no reader claimed
                            (read), free room no writer claimed (write) */
  uint32_t reserve_base; /* the position a reservation made now starts at */
  uint32_t packets;      /* positions claimed by writers and not yet claimed by readers */
  uint32_t capacity;     /* the pipe's depth */
  LoomSlotReadFn read_slot; /* read pipes: called with `fifo` for the packet at a slot position */
  void *fifo;
  /* Outputs, set by loom_model_cycle: 1 when the kernel took the offered packet (read) or added
   * out_data (write) at this cycle's edge. */
  uint8_t fire;
  uint64_t out_data[LOOM_PACKET_WORDS];
  uint8_t reserve_fire;   /* 1: the kernel claims reserve_count positions from reserve_base at this edge */
  uint32_t reserve_count;
  uint8_t slot_fire;      /* write pipes: 1 when slot_data is written at position `slot` at this edge
                             (always 0 on read pipes, whose slot reads change nothing) */
  uint32_t slot;
  uint64_t slot_data[LOOM_PACKET_WORDS];
  uint8_t commit_fire;    /* 1: the reservation starting at commit_base is done at this edge */
  uint32_t commit_base;
} LoomStream;

#ifdef __cplusplus
extern "C" {
#endif
typedef uint32_t (*LoomModelAbiVersionFn)(void);
typedef uint32_t (*LoomModelKernelCountFn)(void);
typedef const char *(*LoomModelKernelNameFn)(uint32_t kernel);
/* Creates a model instance of kernel `kernel`, held in reset for a few cycles. */
typedef void *(*LoomModelCreateFn)(uint32_t kernel);
typedef void (*LoomModelDestroyFn)(void *model);
/* Drives args and NDRange onto the ports and pulses start for one cycle. args holds each argument's
 * words in order: one, or bytes / 8 for an argument over 8 bytes (HardwareKernel::wideArgBytes). */
typedef void (*LoomModelStartFn)(void *model, const uint64_t *args, const uint64_t offset[3],
                                 const uint64_t size[3]);
/* One clock cycle: applies ports[i].req_ready/resp_* and the inputs of streams[s], evaluates
 * (calling streams[s].read_slot for the slot a read pipe asks for, then evaluating again), reports
 * fired requests in ports[i].req_* and the operations of streams[s] in their outputs, clocks the edge.
 * Returns LOOM_CYCLE_DONE when the done output is high after the edge, or'd with LOOM_CYCLE_RETIRED
 * when a work-item finished at the edge (progress, though no memory request fired). */
typedef int (*LoomModelCycleFn)(void *model, LoomPort *ports, LoomStream *streams);
#define LOOM_CYCLE_DONE 1
#define LOOM_CYCLE_RETIRED 2
#ifdef __cplusplus
}
#endif

#endif

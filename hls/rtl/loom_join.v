// loom_join: synchronises N elastic control channels into one.
// SPDX-License-Identifier: Apache-2.0
//
// Purely combinational, no state and no latency: the output is valid when every input is valid,
// and every input is consumed in the cycle the output transfers. Data buses are wired around the
// join by the generator; only the handshake passes through here.
module loom_join #(
    parameter integer N = 2
) (
    input  [N-1:0] in_valid,
    output [N-1:0] in_ready,
    output         out_valid,
    input          out_ready
);
  assign out_valid = &in_valid;
  assign in_ready  = {N{out_ready & out_valid}};
endmodule

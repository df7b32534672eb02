// loom_fork: eager fork of one elastic control channel to N consumers.
// SPDX-License-Identifier: Apache-2.0
//
// Each output sees the token as soon as the input is valid and takes it independently; a registered
// "taken" bit per output remembers who already has it. The input is consumed in the cycle in which
// the last outstanding consumers take it, so a token costs one cycle when all consumers are ready.
// out_valid depends on in_valid and the taken bits only, never on out_ready, which keeps
// fork -> join networks free of combinational loops. Data is wired to all consumers by the generator.
module loom_fork #(
    parameter integer N = 2
) (
    input          clk,
    input          rst,
    input          in_valid,
    output         in_ready,
    output [N-1:0] out_valid,
    input  [N-1:0] out_ready
);
  reg [N-1:0] taken_q;

  assign out_valid = {N{in_valid}} & ~taken_q;
  // Every output either took the token earlier or takes it now.
  assign in_ready  = &(taken_q | out_ready);

  always @(posedge clk) begin
    if (rst || (in_valid && in_ready))
      taken_q <= {N{1'b0}};
    else
      taken_q <= taken_q | (out_valid & out_ready);
  end
endmodule

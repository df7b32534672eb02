# Runs TOOL with ARGS ('|'-separated) and fails unless it exits 0 and prints nothing at all.
# Used by the lint (verilator --lint-only -Wall) and synthesis (yosys -q) checks of hls/rtl.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${TOOL} ${args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} ${args} failed (exit ${rc}):\n${out}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "${TOOL} ${args} printed output (warnings are failures):\n${out}")
endif()

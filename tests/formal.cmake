# Model checking of the monitor RTL (issue #66): yosys's formal flow (read_verilog -formal,
# yosys-smtbmc with z3) proves the properties written beside the code in rtl/monitor (the
# `ifdef FORMAL blocks), reaches its cover points, and refutes mutated copies of it with a
# counterexample VCD. rtl/formal/prove.py runs each; outputs (models, logs, traces) in
# build/formal/<test>. Label: formal. Depths and parameters: rtl/README.md "Formal proofs".
# Not in the sanitized tree (-DTESTBED_SANITIZE=ON): yosys and z3 run none of this build's code,
# so there they would run the same programs on the same sources a second time.
if(TESTBED_SANITIZE)
  return()
endif()
set(_formal_out ${CMAKE_BINARY_DIR}/formal)
# formal_check(NAME TOP MODE DEPTH [PARAMS k=v...] [ARGS ...])
function(formal_check name top mode depth)
  cmake_parse_arguments(F "" "" "PARAMS;ARGS" ${ARGN})
  set(params)
  foreach(p ${F_PARAMS})
    list(APPEND params -p ${p})
  endforeach()
  add_test(NAME ${name}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/rtl/formal/prove.py --name ${name} --top ${top}
            --rtl ${CMAKE_SOURCE_DIR}/rtl --out ${_formal_out}/${name} --mode ${mode} --depth ${depth}
            ${params} ${F_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS formal TIMEOUT 400)
endfunction()

# Small parameters where the full ones are too slow: the SMI with a 2-entry FIFO and a 3-bit time
# stamp, the MMI with 3 SMIs, a 6-entry FIFO and 3/2-clock slots (the RTL tests' small
# configuration). The SMI's proofs cut its filter (any filter behaviour), proved on its own.
set(_smi_small DEPTH=2 TS_W=3 WRITE_GAP=2)
set(_mmi_small N_SMI=3 DEPTH=6 WORD_CLOCKS=3 EMPTY_CLOCKS=2)
# Proofs (k-induction: unbounded) and bounded checks.
formal_check(formal_fifo_prove mon_fifo prove 3)                      # full size: 1024 x 32
formal_check(formal_timebase_prove mon_timebase prove 4)              # TICK_DIV 10, TS_W 16
formal_check(formal_smi_prove mon_smi prove 3 PARAMS ${_smi_small} ARGS --cut u_filter)
formal_check(formal_mmi_prove mon_mmi prove 4 PARAMS ${_mmi_small})
formal_check(formal_filter_bmc mon_filter bmc 3)
# Cover points (the simulation's and the formal ones) reached from reset.
formal_check(formal_fifo_cover mon_fifo cover 10 PARAMS DEPTH=4 WIDTH=4)
formal_check(formal_timebase_cover mon_timebase cover 28 PARAMS TICK_DIV=3 TS_W=2)
formal_check(formal_smi_cover mon_smi cover 10 PARAMS ${_smi_small} ARGS --cut u_filter)
formal_check(formal_mmi_cover mon_mmi cover 22 PARAMS ${_mmi_small})
# Mutations: each proof must be able to fail. A scripted substitution in a copy of the real source
# (the run stops if the pattern is not there exactly once); the test passes only when an
# assertion fails from reset and the counterexample VCD parses and converts to FST.
formal_check(formal_mutant_fifo_second_push mon_fifo bmc 6 PARAMS DEPTH=4 WIDTH=4
  ARGS --expect-fail --mutate mon_fifo.sv "if (push_b) wp <= inc(wp_b)" "if (push_b) wp <= wp_b")
formal_check(formal_mutant_timebase_wrap mon_timebase bmc 16 PARAMS TICK_DIV=3 TS_W=2
  ARGS --expect-fail --mutate mon_timebase.sv "assign wrap = tick && ts == '0" "assign wrap = tick && ts_q == '0")
formal_check(formal_mutant_smi_full_off_by_one mon_smi bmc 8 PARAMS ${_smi_small}
  ARGS --cut u_filter --expect-fail --mutate mon_smi.sv "!pend_b && !fpend_b && count_p != FULL" "!pend_b && !fpend_b && count_p <= FULL")
formal_check(formal_mutant_smi_lost_not_counted mon_smi bmc 8 PARAMS ${_smi_small}
  ARGS --cut u_filter --expect-fail --mutate mon_smi.sv "lost_next = lost + 32'(ev_lost)" "lost_next = lost")
formal_check(formal_mutant_filter_counts_passes mon_filter bmc 4
  ARGS --expect-fail --mutate mon_filter.sv "filtered[c] + 32'(ev_wr && !ev_pass" "filtered[c] + 32'(ev_wr")

# TOS as a person uses it (label "tos"): each test boots TOS on the six boards with a shell on
# every board (boot script "* sh"), types a session script at the operator's console (the
# master's, run.input) and checks what the console shows. The script ends with `shutdown`,
# which halts every board; testbed must then exit 0 (a session that hangs stops after 120 s of
# simulated time, with boards still running: exit 1).
set(_tos_out ${CMAKE_BINARY_DIR}/test-out/tos-sessions)
set(_check ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_check.cmake)
set(_sessions ${CMAKE_CURRENT_SOURCE_DIR}/tos/sessions)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/tos-rc/sessions.rc "# a shell on every board\n* sh\n")
tos_filestore(NAME tos-sessions FILES sh hello local dgl tos/sessions/good.sh tos/sessions/bad.sh
              RC ${CMAKE_CURRENT_BINARY_DIR}/tos-rc/sessions.rc SIZE_KB 448)

# tos_session_test(NAME <name> REGEX <regex over the master's console>)
# types tests/tos/sessions/<name>.txt
function(tos_session_test)
  cmake_parse_arguments(T "" "NAME;REGEX" "" ${ARGN})
  if(T_UNPARSED_ARGUMENTS) # a ';' in the quoted REGEX splits it here: its tail would never be checked
    message(FATAL_ERROR "tos_session_test(${T_NAME}): arguments not understood (a ';' in the regex splits it: "
                        "write '.' for it): ${T_UNPARSED_ARGUMENTS}")
  endif()
  add_test(NAME tos_session_${T_NAME}
    COMMAND ${CMAKE_COMMAND}
      "-DCMD=$<TARGET_FILE:testbed>|--set|board.filestore=tos-sessions.fs|--input|${_sessions}/${T_NAME}.txt|--console|master|--stop-ms|120000|--out|${_tos_out}/${T_NAME}"
      -DEXPECT_RC=0 "-DEXPECT_REGEX=${T_REGEX}" -P ${_check})
  set_tests_properties(tos_session_${T_NAME} PROPERTIES LABELS tos)
endfunction()

# The shell: help, variables, a program in the foreground, one in the background listed by ps
# and removed by kill, an unknown command, console switching to water (its own variables) and
# back, shutdown of the whole machine.
tos_session_test(NAME shell_basics
  REGEX "master\\$ help.*ps \\[-l\\].*hello operator.*hello from board 0, thread [0-9a-f]+: hello one two.*\\[1\\] local.*1 local +bg +2.*master\\$ kill 1.*master\\$ ps[^l]*master\\$ nosuchprog.*sh: nosuchprog: no such program.*\\[console: water\\].*this is *\r?\n.*now on water.*\\[console: master\\].*back on the master.*machine halted")

# The operator switches the console (issue 62 item 8): the shell of the board switched to prompts
# at once, as after a Ctrl-C with no job, so the operator sees where they type (before, its prompt
# came only after the next line); the same for the master's shell when the console comes back.
tos_session_test(NAME console_switch_prompts
  REGEX "\\[console: water\\]\r?\nwater\\$ echo now on water\r?\nnow on water.*\\[console: master\\]\r?\nmaster\\$ echo back on the master\r?\nback on the master.*machine halted")

# Migration from the shell: a background program's first thread (ready while it computes) is
# moved to air and ps on the master shows it there; a thread that does not exist and a board
# that does not exist are refused, each with its reason; kill removes the program on every
# board. Its receiving thread is blocked but for a moment after each message, so `migrate 41
# fire` is refused (not ready) or moves it, as the typed line's time falls; the refusal itself
# is proved where the time is not a person's (migration_keeps_data: ENOTREADY). The second ps may
# likewise fall in such a moment (the thread ready).
tos_session_test(NAME migration
  REGEX "master\\$ migrate 40 air.*master\\$ ps.*thread 0041 receive.*thread 0040 on air.*master\\$ migrate 41 fire.*migrate: thread 07ff: no such thread.*migrate: mars: no such board.*master\\$ ps.*thread 0041 (receive|ready|on fire).*master\\$ kill 1.*machine halted")

# Files: redirection into a file and reading it back, cp on one board and to water (then ls and
# cat there), rm, chmod (a write refused, then allowed), mv, scripts (one good, one with a
# syntax error that stops it, one missing), and a full filestore (448 KB: programs linked with
# newlib are about 60 KB) refusing a copy while
# every file already stored stays intact.
tos_session_test(NAME files
  REGEX "master\\$ cat greeting\r?\nhello world.*\\[console: water\\].*note.*hello world.*\\[console: master\\].*rm: copy: no such file.*cat: nosuch: no such file.*sh: greeting: permission denied.*master\\$ cat hi\r?\nagain.*script line one.*hello from board 0, thread [0-9a-f]+: hello from a script.*before the error.*sh: bad.sh:2: syntax error: unmatched.*sh: nosuch.sh: no such file.*cp: l[0-9]: filestore full.*hello from board 0, thread [0-9a-f]+: hello still here.*machine halted")

# The LAN link from the shell: upload a program built on the host and run it, download a copy
# that must be byte-identical; a file over 512 KB, a file the host does not have and a corrupt
# executable are each refused with a clear message, and the filestore stays intact.
add_test(NAME tos_session_upload_download
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tos_out}/upload_download
          -DFILESTORE=tos-sessions.fs -DSCRIPT=${_sessions}/upload_download.txt
          -DHELLO=${TESTBED_FIRMWARE_DIR}/hello.elf
          "-DREGEX=upload: myprog: [0-9]+ bytes.*hello from board 0, thread [0-9a-f]+: myprog running after the upload.*download: back: [0-9]+ bytes.*upload: big.bin: file too large.*upload: nothere: no such file on the host.*upload: corrupt: 60 bytes.*corrupt: not a TOS executable.*sh: corrupt: not a TOS executable.*rwx +[0-9]+ myprog.*hello from board 0, thread [0-9a-f]+: hello still here.*machine halted"
          # the big file takes seconds on the link: progress once a second, then the total
          "-DERR_REGEX=lan: upload big.bin: [0-9]+ of 516 KB \\([0-9]+%\\) after 1 s.*lan: upload big.bin: 516 KB in [0-9.]+ s"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/tos_session_upload.cmake)
set_tests_properties(tos_session_upload_download PROPERTIES LABELS tos)

# The shell against a hostile operator (issue #30, label security): a board that does not exist
# (`console 7`: the controller cannot reach it, the console comes back to the master; `mars`, `5x`
# refused), `kill` arguments parsed whole (`abc`, `99`, `1x` refused, not read as process 0) and
# the shell refusing to kill itself, a line longer than the console's buffer refused whole (not
# run cut short) and a $VAR expansion longer than the word buffer refused (it overran a static
# buffer); the shell still answers after each.
tos_session_test(NAME shell_hostile
  REGEX "master\\$ console 7.*\\[console: there is no board 7 on the network. back on master\\].*master\\$ echo still on the master\r?\nstill on the master.*console: mars: no such board.*console: 5x: no such board.*kill: abc: not a process number.*kill: 0: that is this shell.*kill: 99: not a process number.*kill: 1x: not a process number.*sh: line too long \\(305 characters. 254 at most\\): nothing run.*sh: the line is too long after expanding variables.*master\\$ echo survived \\$\\?\r?\nsurvived 2.*machine halted")
set_tests_properties(tos_session_shell_hostile PROPERTIES LABELS "tos;security")

# The job-control and result-file sessions: shells, and tests/tos/spinner.c to interrupt.
tos_filestore(NAME tos-jobs FILES sh hello spinner RC ${CMAKE_CURRENT_BINARY_DIR}/tos-rc/sessions.rc SIZE_KB 400)

# Job control and a console that cannot be lost (issue #31): Ctrl-C interrupts the foreground
# program (and, with none, gives a fresh prompt), Ctrl-Z stops it, bg lets it run in the
# background, kill ends it; neither character reaches the next command line. Ctrl-D at water's
# prompt ends water's shell and a new one starts at once, as init restarts a getty: the console
# is never left on a dead shell. The script has no `shutdown`: when it is done, the run waits
# for the background program still running (it finishes) and then ends cleanly, exit 0.
# A line of the script waits for the shell's prompt or for the spinner's "spinning" line.
add_test(NAME tos_session_job_control
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tos_out}/job_control
          -DFILESTORE=tos-jobs.fs -DSCRIPT=${_sessions}/job_control.txt
          "-DREGEX=master\\$ spinner 60000.*spinner: spinning.*\\^C.*\\[1\\] spinner interrupted.*master\\$ echo after the interrupt\r?\nafter the interrupt.*spinner: spinning.*\\^Z.*\\[1\\] spinner stopped \\(fg 1 resumes it.*1 spinner +suspended.*master\\$ bg 1.*1 spinner +bg .*master\\$ kill 1.*master\\$ echo jobs done\r?\njobs done.*\\[console: water\\].*tos: water: the shell ended \\(exit 0\\); a new shell starts.*water\\$ echo water is back\r?\nwater is back.*\\[console: master\\].*spinner: done after 300 ms.*testbed: the session script is done and for 1 s nothing progressed"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/tos_session_prompts.cmake)
set_tests_properties(tos_session_job_control PROPERTIES LABELS "tos;hardening")

# Ctrl-C for a running program with the shell's prompts alone (issue 62): `@wait TEXT` makes the
# next line wait for the program's output instead of a prompt, so the Ctrl-C reaches the spinner
# (600 s of computing) and the session goes on. Without the @wait line the Ctrl-C line waits for a
# prompt that does not come while the spinner runs (progress: the no-progress guard never fires):
# a tenth of run.script_wait_ms in, stderr names the line and what it waits for; at the whole of
# it the run stops, naming them again.
add_test(NAME tos_session_ctrl_c_after_wait_ends_spinner
  COMMAND ${CMAKE_COMMAND}
    "-DCMD=$<TARGET_FILE:testbed>|--set|board.filestore=tos-jobs.fs|--input|${_sessions}/ctrl_c_after_wait.txt|--console|master|--stop-ms|120000|--out|${_tos_out}/ctrl_c_after_wait"
    -DEXPECT_RC=0
    "-DEXPECT_REGEX=master\\$ spinner 600000.*spinner: spinning.*\\^C.*\\[1\\] spinner interrupted.*master\\$ echo after the interrupt\r?\nafter the interrupt.*master\\$ echo done\r?\ndone.*testbed: the session script is done"
    -P ${_check})
add_test(NAME tos_session_line_waiting_long_says_so
  COMMAND ${CMAKE_COMMAND}
    "-DCMD=$<TARGET_FILE:testbed>|--set|board.filestore=tos-jobs.fs|--input|${_sessions}/ctrl_c_without_wait.txt|--console|master|--stop-ms|120000|--set|run.script_wait_ms=3000|--out|${_tos_out}/ctrl_c_without_wait"
    -DEXPECT_RC=1
    "-DEXPECT_REGEX=testbed: the session script's line 2 \\(\\^C\\) for `\\$ ` or `\\[console: master\\]\\\\r\\\\n` has waited [0-9.]+ s; the run stops at 3 s \\(run.script_wait_ms\\).*testbed: the session script's line 2 \\(\\^C\\) for `\\$ ` or `\\[console: master\\]\\\\r\\\\n` has waited 3 s \\(run.script_wait_ms\\)"
    -P ${_check})
set_tests_properties(tos_session_ctrl_c_after_wait_ends_spinner tos_session_line_waiting_long_says_so
                     PROPERTIES LABELS "tos;hardening")

# Result files a guest cannot forge (issue #30, label security): a download named as one of the
# host's own results (monitor.trace.txt, events.1.vcd, master.console.log) is refused by the host
# (EPERM in TOS) and said on stderr; stale results of an earlier run are removed before the run
# and an old monitor.raw is not decoded as this run's; an ordinary download still lands. The
# script ends with a program waiting for ever: the run ends when the session is over (exit 0)
# and names the program it stopped.
add_test(NAME tos_session_forged_results
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tos_out}/forged_results
          -DFILESTORE=tos-jobs.fs -DSCRIPT=${_sessions}/forged_results.txt -DPLANT_STALE=1
          "-DREGEX=download: monitor.trace.txt: refused: the host keeps that name for its own results.*download: events.1.vcd: refused.*download: master.console.log: refused.*download: mine.txt: [0-9]+ bytes.*testbed: the session script is done.*programs still there, stopped with the run.*master: spinner \\([0-9]+, background\\) \\[[0-9a-f]+ recv\\].*the master sent no monitor.raw over its LAN link \\(the one in the folder is from an earlier run: not used\\)"
          "-DERR_REGEX=the guest tried to write monitor.trace.txt over the LAN link: refused"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/tos_session_prompts.cmake)
set_tests_properties(tos_session_forged_results PROPERTIES LABELS "tos;security")

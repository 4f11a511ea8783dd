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
              RC ${CMAKE_CURRENT_BINARY_DIR}/tos-rc/sessions.rc SIZE_KB 400)

# tos_session_test(NAME <name> REGEX <regex over the master's console>)
# types tests/tos/sessions/<name>.txt
function(tos_session_test)
  cmake_parse_arguments(T "" "NAME;REGEX" "" ${ARGN})
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

# Migration from the shell: a background program's first thread (ready while it computes) is
# moved to air and ps on the master shows it there; its receiving thread (blocked), a thread
# that does not exist and a board that does not exist are refused, each with its reason; kill
# removes the program on every board.
tos_session_test(NAME migration
  REGEX "master\\$ migrate 40 air.*master\\$ ps.*thread 0041 receive.*thread 0040 on air.*migrate: thread 0041 is not ready.*migrate: thread 07ff: no such thread.*migrate: mars: no such board.*master\\$ kill 1.*machine halted")

# Files: redirection into a file and reading it back, cp on one board and to water (then ls and
# cat there), rm, chmod (a write refused, then allowed), mv, scripts (one good, one with a
# syntax error that stops it, one missing), and a full filestore (400 KB: programs linked with
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

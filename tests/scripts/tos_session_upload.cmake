# The upload/download session (cmake -P): prepares the host's upload folder (the run's output
# folder) with a program built on the host (hello.elf without its debug sections), a file over 512 KB and a
# corrupt executable, runs the session (the LAN link at 460,800 baud, so that the large file is
# refused in seconds: it still crosses the link whole), checks the console against REGEX, and requires the
# downloaded copy of the program to be byte-identical to what was uploaded.
# ERR_REGEX: the simulator's stderr (the link's progress lines).
#   -DTESTBED=<exe> -DOUT=<dir> -DFILESTORE=<name> -DSCRIPT=<session> -DHELLO=<hello.elf> -DREGEX=<regex>
#   [-DERR_REGEX=<regex>]
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
# As a user uploads a program: without the debug sections the build leaves in it for gdb (they
# are most of the file, and the link moves about 3 KB/s).
execute_process(COMMAND m68k-linux-gnu-objcopy --strip-debug ${HELLO} ${OUT}/myprog RESULT_VARIABLE stripped)
if(NOT stripped EQUAL 0)
  message(FATAL_ERROR "m68k-linux-gnu-objcopy --strip-debug ${HELLO} failed")
endif()
string(REPEAT "0123456789abcdef" 33000 big) # 528,000 bytes: just over 512 KB
file(WRITE ${OUT}/big.bin "${big}")
execute_process(COMMAND head -c 60 ${HELLO} OUTPUT_FILE ${OUT}/corrupt) # an executable cut short
execute_process(COMMAND ${TESTBED} --set board.filestore=${FILESTORE} --input ${SCRIPT} --console master
                        --stop-ms 120000 --set board.link_baud=460800 --out ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "testbed exited with ${rc}")
endif()
if(NOT "${out}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}'")
endif()
if(DEFINED ERR_REGEX AND NOT "${err}" MATCHES "${ERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${ERR_REGEX}'")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/myprog ${OUT}/back RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "the downloaded file ${OUT}/back differs from the uploaded ${OUT}/myprog")
endif()
message("download: ${OUT}/back is byte-identical to the uploaded ${OUT}/myprog")

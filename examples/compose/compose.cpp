// Two boards and a monitor, composed in C++ against the installed models (find_package(TestbedModels)):
// the master and one slave on Centrenet node 0, the slave's SMI and the master's MMI, both boards
// booting TOS with the default session's filestore (its boot script says hello on each). Usage: compose [OUT_DIR] [QUANTUM_US]
#include <testbed/machine_builder.h>

#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

int sc_main(int argc, char* argv[]) {
  std::string out = argc > 1 ? argv[1] : "compose-out";
  std::string quantum = argc > 2 ? argv[2] : "1000";
  try {
    // The firmware folder of the installation: demo.elf and tos.elf are looked up there.
    testbed::MachineBuilder m(TESTBED_FIRMWARE_DIR, "compose.cpp");
    m.set("board.image", "tos.elf")          // every board boots TOS...
        .set("board.filestore", "tos-default.fs")  // ...with the default session's programs
        .set("cpu.quantum_us", quantum)      // exact mode (the default): results do not depend on it
        .set("monitor.smis", "1")            // one SMI, for the one slave
        .set("run.out_dir", out)
        .set("run.console", "none")          // console logs go to OUT_DIR only
        .set("run.stop_ms", "3000");         // simulated time limit
    m.add_board("master", 0, 0).add_board("earth", 0, 1);

    std::unique_ptr<testbed::Machine> machine = m.build();  // checked as a machine file is
    machine->spec().print(std::cout);
    machine->run();

    for (size_t i = 0; i < machine->board_count(); ++i) {
      testbed::Board& b = machine->board(i);
      const testbed::BoardResult& r = b.result();
      std::printf("%s: %s, %llu instructions, %.3f ms, console: %s\n", b.basename(),
                  r.finished ? ("exit status " + std::to_string(r.exit_status())).c_str() : "running",
                  (unsigned long long)b.cpu().core().instructions(), sc_core::sc_time_stamp().to_seconds() * 1e3,
                  machine->console_first_line(i).c_str());
    }
    if (const testbed::monitor::RecordingProbe* p = machine->probe())
      std::printf("monitor: %zu events written by the slave, %llu kept\n", p->records.size(), (unsigned long long)p->kept());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compose: %s\n", e.what());
    return 1;
  }
}

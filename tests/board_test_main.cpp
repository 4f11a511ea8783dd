// Entry point of the SystemC test binaries: SystemC's main() calls sc_main(), which runs the
// GoogleTest cases (each builds its bench once and simulates inside it).
#include <gtest/gtest.h>
#include <systemc>

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

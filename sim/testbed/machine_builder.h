// testbed::MachineBuilder: compose a machine in a user's sc_main -- boards, Centrenet, the
// monitor, images, user devices -- with the machine file's defaults and checks, since what it
// builds is a machine file's tree, read by the one reader (MachineSpec::from_config). A file
// may be loaded first and then extended in code.
//
//   testbed::MachineBuilder m(firmware_dir);           // where tos.elf, demo.elf are looked up
//   m.load("my.toml");                                 // optional
//   m.set("board.image", "\"demo.elf\"");              // any machine-file key, a TOML value
//   m.add_board("master", 0, 0).add_board("earth", 0, 1);
//   m.add_device("earth", "crc0", "./libcrc_unit.so", 0xFE1000);   // or a registered model's name
//   auto machine = m.build();                          // throws ConfigError, as testbed would say
//   machine->run();
#pragma once
#include "config.h"
#include "machine.h"
#include "machine_spec.h"

#include <map>
#include <memory>
#include <string>

namespace testbed {

class MachineBuilder {
 public:
  // `name` stands for the file in messages about settings made in code.
  explicit MachineBuilder(std::string firmware_dir, std::string name = "<MachineBuilder>");

  // Starts from a machine file (its settings, boards and devices; messages keep its lines).
  MachineBuilder& load(const std::string& machine_file);
  // One setting, as testbed's --set: "cpu.quantum_us", "100"; a bare word is a string.
  MachineBuilder& set(const std::string& key, const std::string& value);
  // A board ([[boards]]): node 0 slot 0 is the master; image "" = board.image.
  MachineBuilder& add_board(const std::string& name, unsigned node, unsigned slot, const std::string& image = "");
  // A user device on board `board` ([[boards.devices]]): `model` is a plugin's path (it has a
  // '/' or ends in .so) or the name of a model linked in (register_device_model). `params` are
  // the device's own keys (what its model reads from a.params), each a TOML value as in set():
  //   m.add_device("earth", "crc0", "./libcrc_unit.so", 0xFE1000, {{"cycles_per_word", "40"}});
  // A key the model does not read is refused when the machine is built, as in a machine file.
  MachineBuilder& add_device(const std::string& board, const std::string& name, const std::string& model,
                             uint32_t address, const std::map<std::string, std::string>& params = {});

  // The machine, checked as a machine file is (throws ConfigError naming what is wrong).
  MachineSpec spec() const;
  // Builds it (a SystemC module; call before sc_start, at most once per simulation).
  std::unique_ptr<Machine> build(const char* module_name = "testbed") const;

 private:
  std::string firmware_dir_, name_;
  toml::table table_;
};

}  // namespace testbed

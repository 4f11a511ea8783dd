#include "machine_builder.h"

namespace testbed {

MachineBuilder::MachineBuilder(std::string firmware_dir, std::string name)
    : firmware_dir_(std::move(firmware_dir)), name_(std::move(name)) {}

MachineBuilder& MachineBuilder::load(const std::string& machine_file) {
  table_ = Config::from_file(machine_file).table();
  name_ = machine_file;
  return *this;
}

MachineBuilder& MachineBuilder::set(const std::string& key, const std::string& value) {
  Config c = Config::from_table(table_, name_);
  c.apply_override(key + "=" + value);
  table_ = c.table();
  return *this;
}

MachineBuilder& MachineBuilder::add_board(const std::string& name, unsigned node, unsigned slot,
                                          const std::string& image) {
  if (!table_.contains("boards")) table_.insert("boards", toml::array{});
  toml::array* boards = table_["boards"].as_array();
  if (!boards) throw ConfigError(name_ + ": boards: expected an array of tables ([[boards]])");
  toml::table b{{"name", name}, {"node", int64_t(node)}, {"slot", int64_t(slot)}};
  if (!image.empty()) b.insert("image", image);
  boards->push_back(std::move(b));
  return *this;
}

MachineBuilder& MachineBuilder::add_device(const std::string& board, const std::string& name,
                                           const std::string& model, uint32_t address,
                                           const std::map<std::string, std::string>& params) {
  toml::array* boards = table_["boards"].as_array();
  toml::table* entry = nullptr;
  if (boards)
    for (auto& b : *boards)
      if (auto* t = b.as_table(); t && (*t)["name"].value<std::string>() == board) entry = t;
  if (!entry) throw ConfigError(name_ + ": add_device(" + name + "): no board named " + board + " (add_board first)");
  if (!entry->contains("devices")) entry->insert("devices", toml::array{});
  toml::array* devs = (*entry)["devices"].as_array();
  if (!devs) throw ConfigError(name_ + ": board " + board + ": devices: expected an array of tables");
  bool plugin = model.find('/') != std::string::npos ||
                (model.size() > 3 && model.compare(model.size() - 3, 3, ".so") == 0);
  toml::table dev{{"name", name}, {"address", int64_t(address)}, {plugin ? "library" : "model", model}};
  for (const auto& [key, value] : params) {
    if (key.empty() || dev.contains(key) || key == "library" || key == "model")
      throw ConfigError(name_ + ": add_device(" + name + "): parameter '" + key +
                        "' is not the device's own (name, address, library and model are the entry's)");
    toml::table parsed;
    try {
      parsed = toml::parse("v = " + value);
    } catch (const toml::parse_error&) {
      parsed = toml::table{{"v", value}};  // a bare word: a string, as set() takes it
    }
    dev.insert(key, *parsed.get("v"));
  }
  devs->push_back(std::move(dev));
  return *this;
}

MachineSpec MachineBuilder::spec() const {
  return MachineSpec::from_config(Config::from_table(table_, name_), firmware_dir_);
}

std::unique_ptr<Machine> MachineBuilder::build(const char* module_name) const {
  return std::make_unique<Machine>(module_name, spec());
}

}  // namespace testbed

// Simulator configuration: a TOML file (toml++ from Debian) plus command-line overrides.
//
// Every value is read through typed getters that check type and range and, on a bad value,
// throw ConfigError naming the file, line, key and what was expected, so a wrong config never
// starts a half-built machine. `--set a.b=value` overrides are applied to the parsed tree
// before anything reads it, so one getter path serves both sources. Keys that nothing read are
// reported (unused_keys()), which catches typos.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <toml++/toml.h>

namespace testbed {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Config {
 public:
  Config() = default;
  static Config from_file(const std::string& path);
  static Config from_string(const std::string& text, const std::string& name = "<string>");
  // A tree built or edited in code (MachineBuilder); `name` stands for the file in messages.
  static Config from_table(toml::table table, const std::string& name);
  // The whole tree (MachineBuilder copies a loaded file's, source lines and all, to extend it).
  const toml::table& table() const { return root_->table; }

  // "board.ram_mb=8", "monitor.tick_us=2", "trace.vcd=out.vcd". The value is parsed as TOML
  // (number, bool, quoted string); an unquoted word is taken as a string.
  void apply_override(const std::string& assignment);

  // The machine profile named by the top-level key `profile` ("default": the file as it is;
  // "1994": profiles.cpp), applied after the overrides: a profile's settings replace the
  // file's, an --set of the same key replaces the profile's. Unknown names are refused.
  void apply_profile();
  // The profiles' names and, for the documentation, each profile's settings with their reasons.
  struct ProfileSetting {
    const char* key;
    const char* value;  // TOML
    const char* why;
  };
  static const std::vector<std::string>& profile_names();
  static const std::vector<ProfileSetting>& profile_settings(const std::string& name);

  // A view on a sub-table ("centrenet", "board[2]"); missing tables give empty views.
  Config section(const std::string& key) const;
  std::vector<Config> array_of_tables(const std::string& key) const;
  bool has(const std::string& key) const;

  int64_t get_int(const std::string& key, int64_t def, int64_t min, int64_t max) const;
  int64_t require_int(const std::string& key, int64_t min, int64_t max) const;
  double get_double(const std::string& key, double def, double min, double max) const;
  bool get_bool(const std::string& key, bool def) const;
  std::string get_string(const std::string& key, const std::string& def) const;
  std::string require_string(const std::string& key) const;
  std::string get_choice(const std::string& key, const std::string& def,
                         const std::vector<std::string>& choices) const;

  const std::string& source_name() const { return root_->name; }
  std::string path() const { return prefix_; }
  // "file:line: path.key" of a key (of this view when absent), for a message about it.
  std::string locate(const std::string& key) const { return where(key, find(key)); }
  // Keys present in the file that no getter asked for, as full dotted paths.
  std::vector<std::string> unused_keys() const;

 private:
  struct Root {
    std::string name;
    toml::table table;
    std::set<std::string> used;
    std::set<std::string> overridden;  // keys an --set gave
  };
  Config(std::shared_ptr<Root> root, const toml::table* t, std::string prefix)
      : root_(std::move(root)), table_(t), prefix_(std::move(prefix)) {}
  const toml::node* find(const std::string& key) const;
  std::string where(const std::string& key, const toml::node* n) const;
  std::string full(const std::string& key) const { return prefix_.empty() ? key : prefix_ + "." + key; }

  std::shared_ptr<Root> root_ = std::make_shared<Root>();
  const toml::table* table_ = &root_->table;
  std::string prefix_;
};

}  // namespace testbed

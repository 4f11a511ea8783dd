#include "config.h"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>
#include <sstream>

namespace testbed {

Config Config::from_file(const std::string& path) {
  auto root = std::make_shared<Root>();
  root->name = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw ConfigError(path + ": cannot read the configuration: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw ConfigError(path + ": not a regular file (a folder or a device is not a configuration)");
  try {
    root->table = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    std::ostringstream s;
    s << path << ":" << e.source().begin.line << ":" << e.source().begin.column << ": " << e.description();
    throw ConfigError(s.str());
  }
  Config c(root, &root->table, "");
  return c;
}

Config Config::from_string(const std::string& text, const std::string& name) {
  auto root = std::make_shared<Root>();
  root->name = name;
  try {
    root->table = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    std::ostringstream s;
    s << name << ":" << e.source().begin.line << ": " << e.description();
    throw ConfigError(s.str());
  }
  return Config(root, &root->table, "");
}

Config Config::from_table(toml::table table, const std::string& name) {
  auto root = std::make_shared<Root>();
  root->name = name;
  root->table = std::move(table);
  return Config(root, &root->table, "");
}

void Config::apply_override(const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("override '" + assignment + "': expected key=value");
  std::string key = assignment.substr(0, eq), value = assignment.substr(eq + 1);
  root_->overridden.insert(key);
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    parsed = toml::table{{"v", value}};  // a bare word: take it as a string
  }
  // Walk/create the dotted path; "board.2.ram_mb" indexes an array of tables.
  toml::table* t = &root_->table;
  std::istringstream parts(key);
  std::string part;
  std::vector<std::string> path;
  while (std::getline(parts, part, '.')) path.push_back(part);
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    toml::node* n = t->get(path[i]);
    if (n && n->is_array() && i + 2 <= path.size()) {
      auto* arr = n->as_array();
      char* end = nullptr;
      long idx = std::strtol(path[i + 1].c_str(), &end, 10);
      if (*end || idx < 0 || size_t(idx) >= arr->size() || !(*arr)[size_t(idx)].is_table())
        throw ConfigError("override '" + assignment + "': no element " + path[i + 1] + " in " + path[i]);
      t = (*arr)[size_t(idx)].as_table();
      ++i;
      continue;
    }
    if (!n) {
      t->insert(path[i], toml::table{});
      n = t->get(path[i]);
    }
    if (!n->is_table()) throw ConfigError("override '" + assignment + "': " + path[i] + " is not a table");
    t = n->as_table();
  }
  // A value replacing a string stays a string (--set centrenet.dma=1994 means "1994").
  const toml::node* existing = t->get(path.back());
  if (existing && existing->is_string() && !parsed.get("v")->is_string()) {
    t->insert_or_assign(path.back(), value);
    return;
  }
  t->insert_or_assign(path.back(), *parsed.get("v"));
}

void Config::apply_profile() {
  std::string name = get_choice("profile", "default", profile_names());
  for (const ProfileSetting& p : profile_settings(name)) {
    if (root_->overridden.count(p.key)) continue;
    apply_override(std::string(p.key) + "=" + p.value);
    root_->overridden.erase(p.key);
  }
}

bool Config::has(const std::string& key) const { return table_ && table_->get(key); }

const toml::node* Config::find(const std::string& key) const {
  if (!table_) return nullptr;
  const toml::node* n = table_->get(key);
  if (n) root_->used.insert(full(key));
  return n;
}

std::string Config::where(const std::string& key, const toml::node* n) const {
  std::ostringstream s;
  s << root_->name;
  if (n && n->source().begin.line) s << ":" << n->source().begin.line;
  s << ": " << full(key);
  return s.str();
}

Config Config::section(const std::string& key) const {
  const toml::node* n = find(key);
  if (!n) return Config(root_, nullptr, full(key));
  if (!n->is_table()) throw ConfigError(where(key, n) + ": expected a table ([" + full(key) + "])");
  return Config(root_, n->as_table(), full(key));
}

std::vector<Config> Config::array_of_tables(const std::string& key) const {
  std::vector<Config> out;
  const toml::node* n = find(key);
  if (!n) return out;
  if (!n->is_array_of_tables()) throw ConfigError(where(key, n) + ": expected an array of tables ([[" + full(key) + "]])");
  auto* arr = n->as_array();
  for (size_t i = 0; i < arr->size(); ++i)
    out.push_back(Config(root_, (*arr)[i].as_table(), full(key) + "." + std::to_string(i)));
  return out;
}

int64_t Config::get_int(const std::string& key, int64_t def, int64_t min, int64_t max) const {
  const toml::node* n = find(key);
  if (!n) return def;
  // Only an integer is read as one: toml++'s value<int64_t>() of a float casts it unchecked,
  // undefined for 1e21 (found by tests/fuzz, corpus/config/float-for-integer.toml).
  if (!n->is_integer()) throw ConfigError(where(key, n) + ": expected an integer");
  auto v = n->value<int64_t>();
  if (!v) throw ConfigError(where(key, n) + ": expected an integer");
  if (*v < min || *v > max)
    throw ConfigError(where(key, n) + " = " + std::to_string(*v) + " is out of range [" +
                      std::to_string(min) + ", " + std::to_string(max) + "]");
  return *v;
}

int64_t Config::require_int(const std::string& key, int64_t min, int64_t max) const {
  if (!has(key)) throw ConfigError(root_->name + ": " + full(key) + ": required integer is missing");
  return get_int(key, 0, min, max);
}

double Config::get_double(const std::string& key, double def, double min, double max) const {
  const toml::node* n = find(key);
  if (!n) return def;
  auto v = n->value<double>();  // integers convert too
  if (!v || !(n->is_floating_point() || n->is_integer()) || !std::isfinite(*v))
    throw ConfigError(where(key, n) + ": expected a number");
  if (*v < min || *v > max) {
    std::ostringstream s;
    s << where(key, n) << " = " << *v << " is out of range [" << min << ", " << max << "]";
    throw ConfigError(s.str());
  }
  return *v;
}

bool Config::get_bool(const std::string& key, bool def) const {
  const toml::node* n = find(key);
  if (!n) return def;
  if (!n->is_boolean()) throw ConfigError(where(key, n) + ": expected true or false");
  return *n->value<bool>();
}

std::string Config::get_string(const std::string& key, const std::string& def) const {
  const toml::node* n = find(key);
  if (!n) return def;
  if (!n->is_string()) throw ConfigError(where(key, n) + ": expected a string");
  return *n->value<std::string>();
}

std::string Config::require_string(const std::string& key) const {
  if (!has(key)) throw ConfigError(root_->name + ": " + full(key) + ": required string is missing");
  return get_string(key, "");
}

std::string Config::get_choice(const std::string& key, const std::string& def,
                               const std::vector<std::string>& choices) const {
  std::string v = get_string(key, def);
  for (auto& c : choices)
    if (c == v) return v;
  std::string list;
  for (auto& c : choices) list += (list.empty() ? "" : ", ") + c;
  throw ConfigError(where(key, find(key)) + " = \"" + v + "\": expected one of " + list);
}

std::vector<std::string> Config::unused_keys() const {
  std::vector<std::string> out;
  std::function<void(const toml::table&, const std::string&)> walk = [&](const toml::table& t, const std::string& p) {
    for (auto& [k, v] : t) {
      std::string path = p.empty() ? std::string(k.str()) : p + "." + std::string(k.str());
      if (v.is_table()) {
        if (!root_->used.count(path)) out.push_back(path);
        else walk(*v.as_table(), path);
      } else if (v.is_array_of_tables()) {
        if (!root_->used.count(path)) { out.push_back(path); continue; }
        auto* arr = v.as_array();
        for (size_t i = 0; i < arr->size(); ++i) walk(*(*arr)[i].as_table(), path + "." + std::to_string(i));
      } else if (!root_->used.count(path)) {
        out.push_back(path);
      }
    }
  };
  walk(root_->table, "");
  return out;
}

}  // namespace testbed

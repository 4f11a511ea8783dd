// The models a machine may put on a board: registered by the program, or loaded from plugins.
#include "device.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <map>
#include <stdexcept>

namespace testbed {
namespace {
std::map<std::string, const DeviceModel*>& registry() {
  static std::map<std::string, const DeviceModel*> r;
  return r;
}
std::map<std::string, const DeviceModel*>& plugins() {
  static std::map<std::string, const DeviceModel*> p;
  return p;
}
}  // namespace

void register_device_model(const DeviceModel& model) {
  if (!model.name || !*model.name || !model.create) throw std::invalid_argument("register_device_model: a model needs a name and create()");
  if (model.abi != kDeviceAbi)
    throw std::invalid_argument(std::string("register_device_model: ") + model.name + " was built against other device headers");
  if (!registry().emplace(model.name, &model).second)
    throw std::invalid_argument(std::string("register_device_model: a model named ") + model.name + " is registered already");
}

const DeviceModel* find_device_model(const std::string& name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : it->second;
}

const DeviceModel* load_device_plugin(const std::string& path) {
  auto it = plugins().find(path);
  if (it != plugins().end()) return it->second;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) throw std::runtime_error("no such library");
  // RTLD_LOCAL: two plugins may use the same names inside; RTLD_NOW: a missing symbol is said now.
  void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw std::runtime_error(std::string("cannot load it: ") + ::dlerror());
  using Entry = const DeviceModel* (*)();
  auto entry = reinterpret_cast<Entry>(::dlsym(h, "testbed_device_model"));
  if (!entry) throw std::runtime_error("not a device plugin: it has no testbed_device_model() (TESTBED_DEVICE_MODEL)");
  const DeviceModel* m = entry();
  if (!m || !m->create || !m->name) throw std::runtime_error("its testbed_device_model() gives no model");
  if (m->abi != kDeviceAbi)
    throw std::runtime_error("built against other device headers (ABI " + std::to_string(m->abi) + ", this simulator's is " +
                             std::to_string(kDeviceAbi) + "): rebuild it against this installation");
  plugins()[path] = m;
  return m;
}

}  // namespace testbed

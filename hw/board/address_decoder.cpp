#include "address_decoder.h"

#include <algorithm>
#include <stdexcept>

namespace testbed {

AddressDecoder::AddressDecoder(sc_core::sc_module_name name, const std::vector<Window>& windows)
    : sc_module(name), target("target"), windows_(windows) {
  target.register_b_transport(this, &AddressDecoder::b_transport);
  target.register_get_direct_mem_ptr(this, &AddressDecoder::get_direct_mem_ptr);
  target.register_transport_dbg(this, &AddressDecoder::transport_dbg);
  for (size_t i = 0; i < windows_.size(); ++i) {
    auto& w = windows_[i];
    for (size_t j = 0; j < i; ++j) {
      auto& v = windows_[j];
      if (uint64_t(w.base) < uint64_t(v.base) + v.size && uint64_t(v.base) < uint64_t(w.base) + w.size)
        throw std::invalid_argument(std::string(this->name()) + ": windows " + v.name + " and " + w.name + " overlap");
    }
    // The socket's SystemC name: the window's, with '.' and spaces (which SystemC refuses in a
    // name) as '_'. SystemC makes the same name itself, but warns (W506) for each object: a
    // user device's window "dev.crc0" gave four warnings in every run.
    std::string sc_name = w.name;
    std::replace_if(sc_name.begin(), sc_name.end(), [](char c) { return c == '.' || c == ' ' || c == '\t'; }, '_');
    ports_.push_back(std::make_unique<Port>(sc_name.c_str()));
    ports_.back()->register_invalidate_direct_mem_ptr(this, &AddressDecoder::invalidate_direct_mem_ptr, int(i));
  }
}

AddressDecoder::Port& AddressDecoder::port(const std::string& window) {
  for (size_t i = 0; i < windows_.size(); ++i)
    if (windows_[i].name == window) return *ports_[i];
  throw std::invalid_argument(std::string(name()) + ": no window named " + window);
}

int AddressDecoder::decode(uint64_t a) const {
  for (size_t i = 0; i < windows_.size(); ++i)
    if (a >= windows_[i].base && a < uint64_t(windows_[i].base) + windows_[i].size) return int(i);
  return -1;
}

const Window* AddressDecoder::window_at(uint32_t address) const {
  int i = decode(address);
  return i < 0 ? nullptr : &windows_[size_t(i)];
}

void AddressDecoder::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  uint64_t a = p.get_address();
  int i = decode(a);
  if (i < 0 || a + p.get_data_length() > uint64_t(windows_[size_t(i)].base) + windows_[size_t(i)].size) {
    ++unmapped_;
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  p.set_address(a - windows_[size_t(i)].base);
  (*ports_[size_t(i)])->b_transport(p, delay);
  p.set_address(a);
}

bool AddressDecoder::get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
  uint64_t a = p.get_address();
  int i = decode(a);
  if (i < 0) return false;
  auto& w = windows_[size_t(i)];
  p.set_address(a - w.base);
  bool ok = (*ports_[size_t(i)])->get_direct_mem_ptr(p, dmi);
  p.set_address(a);
  // Back to board addresses, clipped to the window.
  uint64_t s = dmi.get_start_address() + w.base, e = dmi.get_end_address() + w.base;
  dmi.set_start_address(std::max<uint64_t>(s, w.base));
  dmi.set_end_address(std::min<uint64_t>(e, uint64_t(w.base) + w.size - 1));
  if (ok && s < w.base) dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (w.base - s));
  return ok;
}

unsigned AddressDecoder::transport_dbg(tlm::tlm_generic_payload& p) {
  uint64_t a = p.get_address();
  int i = decode(a);
  if (i < 0) return 0;
  auto& w = windows_[size_t(i)];
  unsigned len = p.get_data_length();
  unsigned n = unsigned(std::min<uint64_t>(len, uint64_t(w.base) + w.size - a));
  p.set_address(a - w.base);
  p.set_data_length(n);
  unsigned got = (*ports_[size_t(i)])->transport_dbg(p);
  p.set_address(a);
  p.set_data_length(len);
  return got;
}

void AddressDecoder::invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end) {
  auto& w = windows_[size_t(id)];
  uint64_t last = uint64_t(w.base) + w.size - 1;
  if (start > last - w.base) return;
  target->invalidate_direct_mem_ptr(start + w.base, std::min<uint64_t>(end, last - w.base) + w.base);
}

}  // namespace testbed

// One access as a TLM-2.0 generic payload, built the same way everywhere: command, address,
// data (guest bytes in address order), length (streaming width = length), no byte enables, DMI
// not granted, response TLM_INCOMPLETE_RESPONSE. Extensions (the bus function code,
// hw/board/bus_extension.h) are the caller's.
#pragma once
#include <tlm>

#include <cstdint>

namespace testbed {

inline void set_access(tlm::tlm_generic_payload& p, tlm::tlm_command cmd, uint64_t address, unsigned char* data,
                       unsigned len) {
  p.set_command(cmd);
  p.set_address(address);
  p.set_data_ptr(data);
  p.set_data_length(len);
  p.set_streaming_width(len);
  p.set_byte_enable_ptr(nullptr);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace testbed

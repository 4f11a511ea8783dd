// Prints what the generated C++ register declarations say (tests/scripts/tables_agree.py
// compares it with the C header and the SystemVerilog package). One line per name:
//   <C name> <value>
// for each register's address and offset, each field's mask and shift, each enumerated value
// and each RAM layout's fields, read from testbed::tables::kRegions / kLayouts, which the
// generator builds from the per-register structs the device models use.
#include <testbed/register_tables.h>

#include <cstdio>
#include <string>

using namespace testbed::tables;

// `prefix` ends in '_', or in '|' for a register's own fields and values (the checker replaces
// an array element's name before the '|' by the array's).
static void values(const std::string& prefix, const ValueSpec* v, unsigned n) {
  for (unsigned i = 0; i < n; ++i) std::printf("%s%s %u\n", prefix.c_str(), v[i].name, unsigned(v[i].value));
}

static void fields(const std::string& prefix, const FieldSpec* f, unsigned n) {
  for (unsigned i = 0; i < n; ++i) {
    std::string name = prefix + f[i].name;
    std::printf("%s %u\n%s_SHIFT %u\n", name.c_str(), unsigned(f[i].mask), name.c_str(), unsigned(f[i].shift));
    values(name + "_", f[i].values, f[i].value_count);
  }
}

int main() {
  for (const RegionSpec& r : kRegions) {
    std::string region = std::string("TB_") + r.name;
    std::printf("%s_BASE %u\n%s_SIZE %u\n", region.c_str(), unsigned(r.base), region.c_str(), unsigned(r.size));
    for (std::size_t i = 0; i < r.count; ++i) {
      const RegSpec& g = r.registers[i];
      std::string reg = region + "_" + g.name;
      std::printf("%s %u\n%s_OFF %u\n", reg.c_str(), unsigned(r.base + g.offset), reg.c_str(), unsigned(g.offset));
      if (g.base_name)  // element 0 of an array that also has the array's name
        std::printf("%s_%s %u\n%s_%s_OFF %u\n", region.c_str(), g.base_name, unsigned(r.base + g.offset),
                    region.c_str(), g.base_name, unsigned(g.offset));
      std::printf("#REG %s %u %s\n", reg.c_str(), unsigned(g.bytes),
                  g.access == RegAccess::RO ? "ro" : g.access == RegAccess::WO ? "wo" : "rw");
      if (g.reset && !g.reset_from_config) std::printf("%s|RESET %u\n", reg.c_str(), unsigned(g.reset));
      fields(reg + "|", g.fields, g.field_count);
      values(reg + "|", g.values, g.value_count);
    }
  }
  for (const LayoutSpec& l : kLayouts) {
    std::string name = std::string("TB_") + l.region + "_" + l.name;
    std::printf("%s_BITS %u\n", name.c_str(), l.bits);
    fields(name + "_", l.fields, l.field_count);
  }
}

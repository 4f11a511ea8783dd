// 68000/68010 disassembler producing GNU objdump's text. The formats below were checked
// against binutils 2.40 by tests/test_m68k_disasm_objdump.cpp, which compares every first word
// (with several extension-word patterns) against objdump itself.
#include "m68k_disasm.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>

namespace m68k {
namespace {

const char* const kRegNames[16] = {"%d0", "%d1", "%d2", "%d3", "%d4", "%d5", "%d6", "%d7",
                                   "%a0", "%a1", "%a2", "%a3", "%a4", "%a5", "%fp", "%sp"};

const char* const kCond[16] = {"t",  "f",  "hi", "ls", "cc", "cs", "ne", "eq",
                               "vc", "vs", "pl", "mi", "ge", "lt", "gt", "le"};

// Effective-address classes as bit sets over the 12 addressing modes (mode 7 split by reg).
enum : uint16_t {
  kDn = 1 << 0, kAn = 1 << 1, kInd = 1 << 2, kPostInc = 1 << 3, kPreDec = 1 << 4,
  kD16 = 1 << 5, kD8 = 1 << 6, kAbsW = 1 << 7, kAbsL = 1 << 8, kPcD16 = 1 << 9,
  kPcD8 = 1 << 10, kImm = 1 << 11,
  kAll = 0xfff,
  kData = kAll & ~kAn,
  kMemAlt = kInd | kPostInc | kPreDec | kD16 | kD8 | kAbsW | kAbsL,
  kDataAlt = kMemAlt | kDn,
  kAlt = kDataAlt | kAn,
  kControl = kInd | kD16 | kD8 | kAbsW | kAbsL | kPcD16 | kPcD8,
  kControlAlt = kInd | kD16 | kD8 | kAbsW | kAbsL,
};

// Mode class bit for the 6-bit EA field; 0 for the unused mode-7 encodings (5..7).
uint16_t ea_class(int mode, int reg) {
  if (mode < 7) return static_cast<uint16_t>(1u << mode);
  return reg <= 4 ? static_cast<uint16_t>(1u << (7 + reg)) : 0;
}

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char buf[128];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

// objdump prints addresses (branch targets, absolute and PC-relative operands) through its
// print_address hook, which in a symbol-less image is "0x" plus 32-bit hex.
std::string address(uint32_t a) { return fmt("0x%" PRIx32, a); }

struct Invalid {};  // thrown inside Decoder when objdump would print ".short"

class Decoder {
 public:
  Decoder(uint32_t pc, const std::function<uint16_t(uint32_t)>& fetch, bool m68010)
      : pc_(pc), pos_(pc + 2), fetch_(fetch), m68010_(m68010) {}

  std::string decode();
  uint32_t length() const { return pos_ - pc_; }

 private:
  uint16_t next() {
    uint16_t w = fetch_(pos_);
    pos_ += 2;
    return w;
  }
  uint32_t next_long() {
    uint32_t hi = next();
    return (hi << 16) | next();
  }
  static void require(bool ok) {
    if (!ok) throw Invalid{};
  }

  // Effective address (mode, reg) of an operand of `size` ('b', 'w', 'l'), which must be in
  // `allowed`. Consumes its extension words.
  std::string ea(int mode, int reg, char size, uint16_t allowed);
  std::string ea_field(uint16_t op, char size, uint16_t allowed) {
    return ea((op >> 3) & 7, op & 7, size, allowed);
  }
  std::string indexed(const char* base);
  std::string reglist(uint16_t mask, bool predec);

  std::string line0(uint16_t op);
  std::string move(uint16_t op);
  std::string line4(uint16_t op);
  std::string line5(uint16_t op);
  std::string branch(uint16_t op);
  std::string arith(uint16_t op, const char* name, bool is_or_and);
  std::string line_b(uint16_t op);
  std::string line_c(uint16_t op);
  std::string shift(uint16_t op);

  uint32_t pc_, pos_;
  const std::function<uint16_t(uint32_t)>& fetch_;
  bool m68010_;
};

std::string Decoder::indexed(const char* base) {
  uint32_t ext_pc = pos_;
  uint16_t w = next();
  // A 68000/68010 ignores bits 10..8 of the brief extension word (scale and full format are
  // 68020); we print what the 68010 executes, so those bits are not looked at.
  std::string index = fmt("%s:%c", kRegNames[(w >> 12) & 15], (w & 0x800) ? 'l' : 'w');
  int32_t disp = static_cast<int8_t>(w & 0xff);
  if (base == nullptr)
    return "%pc@(" + address(ext_pc + static_cast<uint32_t>(disp)) + "," + index + ")";
  // objdump prints this displacement with its 64-bit host vma formatting: hex, sign-extended.
  return fmt("%s@(%" PRIx64 ",%s)", base, static_cast<uint64_t>(static_cast<int64_t>(disp)),
             index.c_str());
}

std::string Decoder::ea(int mode, int reg, char size, uint16_t allowed) {
  require(ea_class(mode, reg) & allowed);
  const char* an = kRegNames[8 + reg];
  switch (mode) {
    case 0: return kRegNames[reg];
    case 1: return an;
    case 2: return fmt("%s@", an);
    case 3: return fmt("%s@+", an);
    case 4: return fmt("%s@-", an);
    case 5: return fmt("%s@(%d)", an, static_cast<int16_t>(next()));
    case 6: return indexed(an);
    default: break;
  }
  switch (reg) {
    case 0: return address(static_cast<uint32_t>(static_cast<int16_t>(next())));
    case 1: return address(next_long());
    case 2: {
      uint32_t ext_pc = pos_;
      int16_t d = static_cast<int16_t>(next());
      return "%pc@(" + address(ext_pc + static_cast<uint32_t>(static_cast<int32_t>(d))) + ")";
    }
    case 3: return indexed(nullptr);
    default: break;  // 4: immediate
  }
  if (size == 'b') return fmt("#%d", static_cast<int8_t>(next() & 0xff));
  if (size == 'w') return fmt("#%d", static_cast<int16_t>(next()));
  return fmt("#%d", static_cast<int32_t>(next_long()));
}

// objdump's register-list syntax: "%d0-%d1/%d6-%a0/%sp" (ranges may run from d7 into a0), and
// "#0" for an empty list.
std::string Decoder::reglist(uint16_t mask, bool predec) {
  if (mask == 0) return "#0";
  uint16_t m = mask;
  if (predec) {  // -(An): bit 0 is a7 ... bit 15 is d0
    m = 0;
    for (int i = 0; i < 16; ++i)
      if (mask & (0x8000 >> i)) m |= static_cast<uint16_t>(1u << i);
  }
  std::string s;
  for (int r = 0; r < 16; ++r) {
    if (!(m & (1u << r))) continue;
    if (!s.empty()) s += "/";
    s += kRegNames[r];
    int first = r;
    while (r < 15 && (m & (1u << (r + 1)))) ++r;
    if (r > first) s += std::string("-") + kRegNames[r];
  }
  return s;
}

const char kSizeChar[3] = {'b', 'w', 'l'};

std::string Decoder::line0(uint16_t op) {
  int mode = (op >> 3) & 7, reg = op & 7, dreg = (op >> 9) & 7;
  if (op & 0x100) {
    if (mode == 1) {  // movep
      const char* nm = (op & 0x40) ? "movepl" : "movepw";
      std::string mem = fmt("%s@(%d)", kRegNames[8 + reg], static_cast<int16_t>(next()));
      if (op & 0x80) return fmt("%s %s,%s", nm, kRegNames[dreg], mem.c_str());
      return fmt("%s %s,%s", nm, mem.c_str(), kRegNames[dreg]);
    }
    static const char* const kBit[4] = {"btst", "bchg", "bclr", "bset"};
    int t = (op >> 6) & 3;
    std::string dst = ea(mode, reg, 'b', t == 0 ? kData : kDataAlt);
    return fmt("%s %s,%s", kBit[t], kRegNames[dreg], dst.c_str());
  }
  int size = (op >> 6) & 3;
  switch (dreg) {
    case 4: {  // static bit operations
      static const char* const kBit[4] = {"btst", "bchg", "bclr", "bset"};
      std::string imm = fmt("#%d", static_cast<int8_t>(next() & 0xff));
      std::string dst = ea(mode, reg, 'b', size == 0 ? (kData & ~kImm) : kDataAlt);
      return fmt("%s %s,%s", kBit[size], imm.c_str(), dst.c_str());
    }
    case 7: {  // moves (68010)
      require(m68010_ && size < 3);
      uint16_t ext = next();
      require((ext & 0x7ff) == 0);
      std::string r = kRegNames[ext >> 12];
      std::string m = ea(mode, reg, kSizeChar[size], kMemAlt);
      if (ext & 0x800) return fmt("moves%c %s,%s", kSizeChar[size], r.c_str(), m.c_str());
      return fmt("moves%c %s,%s", kSizeChar[size], m.c_str(), r.c_str());
    }
    default: break;
  }
  static const char* const kImmOps[8] = {"ori", "andi", "subi", "addi", nullptr, "eori", "cmpi",
                                         nullptr};
  const char* nm = kImmOps[dreg];
  require(nm != nullptr && size < 3);
  char sz = kSizeChar[size];
  // ori/andi/eori to ccr (byte) and sr (word)
  if (mode == 7 && reg == 4 && (dreg == 0 || dreg == 1 || dreg == 5) && size < 2) {
    std::string imm = ea(7, 4, sz, kImm);
    return fmt("%s%c %s,%s", nm, sz, imm.c_str(), size == 0 ? "%ccr" : "%sr");
  }
  std::string imm = ea(7, 4, sz, kImm);
  std::string dst = ea(mode, reg, sz, kDataAlt);
  return fmt("%s%c %s,%s", nm, sz, imm.c_str(), dst.c_str());
}

std::string Decoder::move(uint16_t op) {
  static const char kSz[4] = {0, 'b', 'l', 'w'};
  char sz = kSz[op >> 12];
  std::string src = ea((op >> 3) & 7, op & 7, sz, sz == 'b' ? kData : kAll);
  int dmode = (op >> 6) & 7, dreg = (op >> 9) & 7;
  if (dmode == 1) {
    require(sz != 'b');
    return fmt("movea%c %s,%s", sz, src.c_str(), kRegNames[8 + dreg]);
  }
  std::string dst = ea(dmode, dreg, sz, kDataAlt);
  return fmt("move%c %s,%s", sz, src.c_str(), dst.c_str());
}

std::string Decoder::line4(uint16_t op) {
  int mode = (op >> 3) & 7, reg = op & 7;
  int size = (op >> 6) & 3;
  if (op & 0x100) {
    int an = (op >> 9) & 7;
    if (size == 3)
      return fmt("lea %s,%s", ea(mode, reg, 'l', kControl).c_str(), kRegNames[8 + an]);
    require(size == 2);  // chk.l (size 0b100) is 68020
    return fmt("chkw %s,%s", ea(mode, reg, 'w', kData).c_str(), kRegNames[an]);
  }
  switch ((op >> 8) & 0xf) {
    case 0x0: case 0x2: case 0x4: case 0x6: {
      int which = (op >> 9) & 3;
      if (size == 3) {
        switch (which) {
          case 0: return "movew %sr," + ea(mode, reg, 'w', kDataAlt);
          case 1:
            require(m68010_);
            return "movew %ccr," + ea(mode, reg, 'w', kDataAlt);
          case 2: return "movew " + ea(mode, reg, 'w', kData) + ",%ccr";
          default: return "movew " + ea(mode, reg, 'w', kData) + ",%sr";
        }
      }
      static const char* const kNm[4] = {"negx", "clr", "neg", "not"};
      return fmt("%s%c %s", kNm[which], kSizeChar[size],
                 ea(mode, reg, kSizeChar[size], kDataAlt).c_str());
    }
    case 0x8:
      switch (size) {
        case 0: return "nbcd " + ea(mode, reg, 'b', kDataAlt);
        case 1:
          if (mode == 0) return fmt("swap %s", kRegNames[reg]);
          if (mode == 1) {
            require(m68010_);
            return fmt("bkpt %d", reg);
          }
          return "pea " + ea(mode, reg, 'l', kControl);
        default: {
          if (mode == 0) return fmt("ext%c %s", size == 2 ? 'w' : 'l', kRegNames[reg]);
          uint16_t mask = next();
          char sz = size == 2 ? 'w' : 'l';
          std::string dst = ea(mode, reg, sz, kControlAlt | kPreDec);
          return fmt("movem%c %s,%s", sz, reglist(mask, mode == 4).c_str(), dst.c_str());
        }
      }
    case 0xa:
      if (size == 3) {
        if (op == 0x4afc) return "illegal";
        if (op == 0x4afd)  // objdump's table still has the SVR4 "swbeg.l" pseudo-op here
          return fmt("swbegl #%d", static_cast<int32_t>(next_long()));
        return "tas " + ea(mode, reg, 'b', kDataAlt);
      }
      return fmt("tst%c %s", kSizeChar[size], ea(mode, reg, kSizeChar[size], kDataAlt).c_str());
    case 0xc: {
      require(size >= 2);  // mul/div long are 68020
      uint16_t mask = next();
      char sz = size == 2 ? 'w' : 'l';
      std::string src = ea(mode, reg, sz, kControl | kPostInc);
      return fmt("movem%c %s,%s", sz, src.c_str(), reglist(mask, false).c_str());
    }
    case 0xe:
      break;
    default:
      throw Invalid{};
  }
  if (size == 2) return "jsr " + ea(mode, reg, 'l', kControl);
  if (size == 3) return "jmp " + ea(mode, reg, 'l', kControl);
  require(size == 1);
  switch (mode) {
    case 0: case 1: return fmt("trap #%d", op & 15);
    case 2: return fmt("linkw %s,#%d", kRegNames[8 + reg], static_cast<int16_t>(next()));
    case 3: return fmt("unlk %s", kRegNames[8 + reg]);
    case 4: return fmt("movel %s,%%usp", kRegNames[8 + reg]);
    case 5: return fmt("movel %%usp,%s", kRegNames[8 + reg]);
    case 6:
      switch (reg) {
        case 0: return "reset";
        case 1: return "nop";
        case 2: return fmt("stop #%d", static_cast<int16_t>(next()));
        case 3: return "rte";
        case 4:
          require(m68010_);
          return fmt("rtd #%d", static_cast<int16_t>(next()));
        case 5: return "rts";
        case 6: return "trapv";
        default: return "rtr";
      }
    default: {
      require(m68010_ && (reg == 2 || reg == 3));
      uint16_t ext = next();
      // Control register names as binutils 2.40 prints them (it knows every 680x0/ColdFire
      // register, not only the 68010's sfc/dfc/usp/vbr).
      static const struct { uint16_t code; const char* name; } kCr[] = {
          {0x000, "sfc"},      {0x001, "dfc"},      {0x002, "cacr"},     {0x003, "tc"},
          {0x004, "itt0"},     {0x005, "itt1"},     {0x006, "dtt0"},     {0x007, "dtt1"},
          {0x008, "buscr"},    {0x009, "rgpiobar"}, {0x00c, "acr4"},     {0x00d, "acr5"},
          {0x00e, "acr6"},     {0x00f, "acr7"},     {0x800, "usp"},      {0x801, "vbr"},
          {0x802, "caar"},     {0x803, "msp"},      {0x804, "isp"},      {0x805, "mmusr"},
          {0x806, "urp"},      {0x807, "srp"},      {0x808, "pcr"},      {0x80f, "pc"},
          {0xc04, "rambar0"},  {0xc05, "rambar1"},  {0xc0e, "mbar0"},    {0xc0f, "mbar1"},
          {0xffe, "cac"},      {0xfff, "mbo"},
      };
      uint16_t code = ext & 0xfff;
      std::string cr = fmt("0x%x", code);
      for (const auto& c : kCr)
        if (c.code == code) cr = std::string("%") + c.name;
      const char* r = kRegNames[ext >> 12];
      if (reg == 2) return fmt("movec %s,%s", cr.c_str(), r);
      return fmt("movec %s,%s", r, cr.c_str());
    }
  }
}

std::string Decoder::line5(uint16_t op) {
  int mode = (op >> 3) & 7, reg = op & 7, size = (op >> 6) & 3;
  if (size == 3) {
    const char* cc = kCond[(op >> 8) & 15];
    if (mode == 1) {
      uint32_t ext_pc = pos_;
      int16_t d = static_cast<int16_t>(next());
      return fmt("db%s %s,%s", cc, kRegNames[reg],
                 address(ext_pc + static_cast<uint32_t>(static_cast<int32_t>(d))).c_str());
    }
    return fmt("s%s %s", cc, ea(mode, reg, 'b', kDataAlt).c_str());
  }
  int q = (op >> 9) & 7;
  char sz = kSizeChar[size];
  // objdump's table accepts subq.b (not addq.b) with an address register; we follow it.
  bool sub = op & 0x100;
  std::string dst = ea(mode, reg, sz, (sz == 'b' && !sub) ? kDataAlt : kAlt);
  return fmt("%sq%c #%d,%s", sub ? "sub" : "add", sz, q ? q : 8, dst.c_str());
}

std::string Decoder::branch(uint16_t op) {
  int c = (op >> 8) & 15;
  const char* nm = c == 0 ? "bra" : c == 1 ? "bsr" : kCond[c];
  const char* b = c <= 1 ? "" : "b";
  int8_t d8 = static_cast<int8_t>(op & 0xff);
  if (d8 != 0)
    return fmt("%s%ss %s", b, nm, address(pc_ + 2 + static_cast<uint32_t>(int32_t{d8})).c_str());
  int16_t d = static_cast<int16_t>(next());
  return fmt("%s%sw %s", b, nm, address(pc_ + 2 + static_cast<uint32_t>(int32_t{d})).c_str());
}

// or/sub/and/add (lines 8, 9, C, D) without their special rows.
std::string Decoder::arith(uint16_t op, const char* name, bool is_or_and) {
  int mode = (op >> 3) & 7, reg = op & 7, dreg = (op >> 9) & 7, opmode = (op >> 6) & 7;
  if (opmode == 3 || opmode == 7) {
    char sz = opmode == 3 ? 'w' : 'l';
    std::string src = ea(mode, reg, sz, kAll);
    return fmt("%sa%c %s,%s", name, sz, src.c_str(), kRegNames[8 + dreg]);
  }
  char sz = kSizeChar[opmode & 3];
  if (opmode < 4) {
    uint16_t allowed = is_or_and ? kData : (sz == 'b' ? kData : kAll);
    std::string src = ea(mode, reg, sz, allowed);
    return fmt("%s%c %s,%s", name, sz, src.c_str(), kRegNames[dreg]);
  }
  if (mode <= 1) {  // addx/subx; abcd/sbcd, exg handled by the callers
    require(!is_or_and);
    if (mode == 0)
      return fmt("%sx%c %s,%s", name, sz, kRegNames[reg], kRegNames[dreg]);
    return fmt("%sx%c %s@-,%s@-", name, sz, kRegNames[8 + reg], kRegNames[8 + dreg]);
  }
  std::string dst = ea(mode, reg, sz, kMemAlt);
  return fmt("%s%c %s,%s", name, sz, kRegNames[dreg], dst.c_str());
}

std::string Decoder::line_b(uint16_t op) {
  int mode = (op >> 3) & 7, reg = op & 7, dreg = (op >> 9) & 7, opmode = (op >> 6) & 7;
  if (opmode == 3 || opmode == 7) {
    char sz = opmode == 3 ? 'w' : 'l';
    std::string src = ea(mode, reg, sz, kAll);
    return fmt("cmpa%c %s,%s", sz, src.c_str(), kRegNames[8 + dreg]);
  }
  char sz = kSizeChar[opmode & 3];
  if (opmode < 4) {
    std::string src = ea(mode, reg, sz, sz == 'b' ? kData : kAll);
    return fmt("cmp%c %s,%s", sz, src.c_str(), kRegNames[dreg]);
  }
  if (mode == 1)
    return fmt("cmpm%c %s@+,%s@+", sz, kRegNames[8 + reg], kRegNames[8 + dreg]);
  std::string dst = ea(mode, reg, sz, kDataAlt);
  return fmt("eor%c %s,%s", sz, kRegNames[dreg], dst.c_str());
}

std::string Decoder::shift(uint16_t op) {
  static const char* const kNm[4] = {"as", "ls", "rox", "ro"};
  char dir = (op & 0x100) ? 'l' : 'r';
  int size = (op >> 6) & 3;
  if (size == 3) {
    require((op & 0x800) == 0);  // bit-field instructions are 68020
    return fmt("%s%cw %s", kNm[(op >> 9) & 3], dir,
               ea((op >> 3) & 7, op & 7, 'w', kMemAlt).c_str());
  }
  int cnt = (op >> 9) & 7;
  std::string src = (op & 0x20) ? std::string(kRegNames[cnt]) : fmt("#%d", cnt ? cnt : 8);
  return fmt("%s%c%c %s,%s", kNm[(op >> 3) & 3], dir, kSizeChar[size], src.c_str(),
             kRegNames[op & 7]);
}

std::string Decoder::decode() {
  uint16_t op = fetch_(pc_);
  int mode = (op >> 3) & 7, reg = op & 7, dreg = (op >> 9) & 7;
  switch (op >> 12) {
    case 0x0: return line0(op);
    case 0x1: case 0x2: case 0x3: return move(op);
    case 0x4: return line4(op);
    case 0x5: return line5(op);
    case 0x6: return branch(op);
    case 0x7:
      require((op & 0x100) == 0);
      return fmt("moveq #%d,%s", static_cast<int8_t>(op & 0xff), kRegNames[dreg]);
    case 0x8:
    case 0xc: {
      bool is_or = (op >> 12) == 0x8;
      int opmode = (op >> 6) & 7;
      if (opmode == 3 || opmode == 7) {
        const char* nm = is_or ? (opmode == 3 ? "divuw" : "divsw")
                               : (opmode == 3 ? "muluw" : "mulsw");
        return fmt("%s %s,%s", nm, ea(mode, reg, 'w', kData).c_str(), kRegNames[dreg]);
      }
      if (opmode >= 4 && mode <= 1) {
        const char* bcd = is_or ? "sbcd" : "abcd";
        if (opmode == 4) {
          if (mode == 0) return fmt("%s %s,%s", bcd, kRegNames[reg], kRegNames[dreg]);
          return fmt("%s %s@-,%s@-", bcd, kRegNames[8 + reg], kRegNames[8 + dreg]);
        }
        require(!is_or);  // pack/unpk are 68020
        if (opmode == 5 && mode == 0) return fmt("exg %s,%s", kRegNames[dreg], kRegNames[reg]);
        if (opmode == 5) return fmt("exg %s,%s", kRegNames[8 + dreg], kRegNames[8 + reg]);
        require(opmode == 6 && mode == 1);
        return fmt("exg %s,%s", kRegNames[dreg], kRegNames[8 + reg]);
      }
      return arith(op, is_or ? "or" : "and", true);
    }
    case 0x9: return arith(op, "sub", false);
    case 0xb: return line_b(op);
    case 0xd: return arith(op, "add", false);
    case 0xe: return shift(op);
    default: throw Invalid{};  // line A, line F
  }
}

}  // namespace

int disassemble(uint32_t pc, const std::function<uint16_t(uint32_t)>& fetch, std::string& out,
                DisasmCpu cpu) {
  Decoder d(pc, fetch, cpu == DisasmCpu::MC68010);
  try {
    out = d.decode();
    return static_cast<int>(d.length());
  } catch (const Invalid&) {
    out = fmt(".short 0x%04x", fetch(pc));
    return 2;
  }
}

}  // namespace m68k

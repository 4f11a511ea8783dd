/* newlib 3.3's towctrans_l and isw*_l map a wide character to Unicode and back through
 * _jp2uc_l and _uc2jp_l (for its Japanese multibyte locales), but define the two only when
 * built with multibyte locales (_MB_CAPABLE), which TOS leaves out (newlib.h): towctrans and
 * its kin did not link. Without those locales a wide character is its Unicode value already. */
#include <wctype.h>

struct __locale_t;

wint_t _jp2uc_l(wint_t c, struct __locale_t *l) {
  (void)l;
  return c;
}

wint_t _uc2jp_l(wint_t c, struct __locale_t *l) {
  (void)l;
  return c;
}

#include "heap_usage.h"

#if defined(__linux__)
#include <malloc.h>
#endif

// Under a sanitizer (ThreadSanitizer, AddressSanitizer) malloc is the sanitizer's allocator, and
// the C library's statistics never move. The sanitizer runtime then defines this function, and
// its count is the one to read; in a plain build the weak reference stays null.
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

static size_t sanitizer_bytes_in_use(void) {
  return __sanitizer_get_current_allocated_bytes ? __sanitizer_get_current_allocated_bytes() : 0;
}

#if defined(__GLIBC__)

size_t heap_bytes_in_use(void) {
  if (__sanitizer_get_current_allocated_bytes) return sanitizer_bytes_in_use();
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}
#elif defined(__APPLE__)
#include <malloc/malloc.h>

size_t heap_bytes_in_use(void) {
  if (__sanitizer_get_current_allocated_bytes) return sanitizer_bytes_in_use();
  malloc_statistics_t statistics;
  malloc_zone_statistics(NULL, &statistics);
  return statistics.size_in_use;
}
#else
size_t heap_bytes_in_use(void) { return sanitizer_bytes_in_use(); }
#endif

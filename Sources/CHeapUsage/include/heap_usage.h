#ifndef HEAP_USAGE_H
#define HEAP_USAGE_H

#include <stddef.h>

/// Bytes of heap currently allocated by malloc across all arenas, or 0 where the C library
/// cannot tell.
size_t heap_bytes_in_use(void);

#endif

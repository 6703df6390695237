/*
 * track.h - private shim: tell a memory checker which bytes are usable.
 *
 * The arena and pool recycle memory the C heap never sees, so neither ASan
 * nor Valgrind would notice a use after restore/reset/put. These macros mark
 * such bytes:
 *   MOTE_TRACK_POISON(p, n)   bytes are off limits (released, on a free list)
 *   MOTE_TRACK_FRESH(p, n)    bytes handed out, contents unspecified
 *   MOTE_TRACK_DEFINED(p, n)  bytes mote itself is about to read (a free-list link)
 *   MOTE_TRACK_IS_POISONED(p, n)  true if a checker knows some byte is off
 *                             limits; lets pool put() refuse a foreign pointer
 *                             without touching a redzone (always false without
 *                             a checker)
 * Block headers of the arena are never marked: only usable bytes are.
 * ASan when the compiler instruments for it; Valgrind client requests when
 * built with -DMOTE_VALGRIND and <valgrind/memcheck.h> exists; otherwise
 * nothing, at no cost.
 */
#ifndef MOTE_TRACK_H
#define MOTE_TRACK_H

#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define MOTE_TRACK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MOTE_TRACK_ASAN 1
#endif
#endif

#if defined(MOTE_TRACK_ASAN)
#include <sanitizer/asan_interface.h>
#define MOTE_TRACK_POISON(p, n) __asan_poison_memory_region((const volatile void *)(p), (n))
#define MOTE_TRACK_FRESH(p, n) __asan_unpoison_memory_region((const volatile void *)(p), (n))
#define MOTE_TRACK_DEFINED(p, n) __asan_unpoison_memory_region((const volatile void *)(p), (n))
#define MOTE_TRACK_IS_POISONED(p, n) (__asan_region_is_poisoned((void *)(p), (n)) != NULL)
#else
#if defined(MOTE_VALGRIND) && defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#define MOTE_TRACK_VALGRIND 1
#endif
#endif
#if defined(MOTE_TRACK_VALGRIND)
#include <valgrind/memcheck.h>
#define MOTE_TRACK_POISON(p, n) ((void)VALGRIND_MAKE_MEM_NOACCESS((p), (n)))
#define MOTE_TRACK_FRESH(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define MOTE_TRACK_DEFINED(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
/* GET_VBITS answers 3, without reporting anything, when a byte is not
 * addressable: the silent query pool put() needs. */
static inline int mote__track_vg_unaddressable(const void *p, size_t n)
{
    unsigned char vbits[16];
    if (n > sizeof vbits) n = sizeof vbits;
    return VALGRIND_GET_VBITS(p, vbits, n) == 3;
}
#define MOTE_TRACK_IS_POISONED(p, n) mote__track_vg_unaddressable((p), (n))
#else
#define MOTE_TRACK_POISON(p, n) ((void)(p), (void)(n))
#define MOTE_TRACK_FRESH(p, n) ((void)(p), (void)(n))
#define MOTE_TRACK_DEFINED(p, n) ((void)(p), (void)(n))
#define MOTE_TRACK_IS_POISONED(p, n) ((void)(p), (void)(n), 0)
#endif
#endif

#endif /* MOTE_TRACK_H */

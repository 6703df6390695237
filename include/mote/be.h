/*
 * mote/be.h - big-endian loads and stores, header-only.
 *
 * Every access goes through memcpy, so any pointer alignment is fine (no
 * unaligned-access faults on Cortex-M0+, no undefined behaviour from casting
 * byte pointers), and the byte order is fixed with a compiler byte-swap
 * builtin where there is one. gcc and clang turn memcpy + __builtin_bswap
 * into a single load/store plus bswap/movbe (x86-64) or rev (ARM); on a
 * big-endian host (detected with __BYTE_ORDER__) the swap disappears and the
 * access is a plain copy. Compilers without the predefined byte-order macros
 * get a portable shift-based version that is correct on any host.
 *
 * float and double are stored as their IEEE-754 bit patterns (as CQL puts
 * them on the wire); NaN payloads and the sign of zero are kept.
 */
#ifndef MOTE_BE_H
#define MOTE_BE_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define MOTE_BE_HOST_BIG 1
#define MOTE_BE_HOST_LITTLE 0
#elif defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MOTE_BE_HOST_BIG 0
#define MOTE_BE_HOST_LITTLE 1
#else
/* Unknown byte order: use the shift-based code below, right everywhere. */
#define MOTE_BE_HOST_BIG 0
#define MOTE_BE_HOST_LITTLE 0
#endif

/* Reverse the byte order of an integer (always, whatever the host). */
static inline uint16_t mote_bswap16(uint16_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap16(v);
#else
    return (uint16_t)((v >> 8) | (v << 8));
#endif
}

static inline uint32_t mote_bswap32(uint32_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap32(v);
#else
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
#endif
}

static inline uint64_t mote_bswap64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap64(v);
#else
    return ((uint64_t)mote_bswap32((uint32_t)v) << 32) | mote_bswap32((uint32_t)(v >> 32));
#endif
}

/* Load a big-endian 16/32/64-bit unsigned integer from p (any alignment). */
static inline uint16_t mote_be_load16(const void *p)
{
#if MOTE_BE_HOST_BIG || MOTE_BE_HOST_LITTLE
    uint16_t v;
    memcpy(&v, p, sizeof v);
#if MOTE_BE_HOST_LITTLE
    v = mote_bswap16(v);
#endif
    return v;
#else
    const uint8_t *b = (const uint8_t *)p;
    return (uint16_t)(((unsigned)b[0] << 8) | b[1]);
#endif
}

static inline uint32_t mote_be_load32(const void *p)
{
#if MOTE_BE_HOST_BIG || MOTE_BE_HOST_LITTLE
    uint32_t v;
    memcpy(&v, p, sizeof v);
#if MOTE_BE_HOST_LITTLE
    v = mote_bswap32(v);
#endif
    return v;
#else
    const uint8_t *b = (const uint8_t *)p;
    return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
#endif
}

static inline uint64_t mote_be_load64(const void *p)
{
#if MOTE_BE_HOST_BIG || MOTE_BE_HOST_LITTLE
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if MOTE_BE_HOST_LITTLE
    v = mote_bswap64(v);
#endif
    return v;
#else
    const uint8_t *b = (const uint8_t *)p;
    return ((uint64_t)mote_be_load32(b) << 32) | mote_be_load32(b + 4);
#endif
}

/* Store v big-endian at p (any alignment). */
static inline void mote_be_store16(void *p, uint16_t v)
{
#if MOTE_BE_HOST_BIG || MOTE_BE_HOST_LITTLE
#if MOTE_BE_HOST_LITTLE
    v = mote_bswap16(v);
#endif
    memcpy(p, &v, sizeof v);
#else
    uint8_t *b = (uint8_t *)p;
    b[0] = (uint8_t)(v >> 8);
    b[1] = (uint8_t)v;
#endif
}

static inline void mote_be_store32(void *p, uint32_t v)
{
#if MOTE_BE_HOST_BIG || MOTE_BE_HOST_LITTLE
#if MOTE_BE_HOST_LITTLE
    v = mote_bswap32(v);
#endif
    memcpy(p, &v, sizeof v);
#else
    uint8_t *b = (uint8_t *)p;
    b[0] = (uint8_t)(v >> 24);
    b[1] = (uint8_t)(v >> 16);
    b[2] = (uint8_t)(v >> 8);
    b[3] = (uint8_t)v;
#endif
}

static inline void mote_be_store64(void *p, uint64_t v)
{
#if MOTE_BE_HOST_BIG || MOTE_BE_HOST_LITTLE
#if MOTE_BE_HOST_LITTLE
    v = mote_bswap64(v);
#endif
    memcpy(p, &v, sizeof v);
#else
    uint8_t *b = (uint8_t *)p;
    mote_be_store32(b, (uint32_t)(v >> 32));
    mote_be_store32(b + 4, (uint32_t)v);
#endif
}

/* IEEE-754 float/double as big-endian bit patterns. Assumes the host's float
 * and double are IEEE binary32/binary64 with the same byte order as its
 * integers (true for every target mote supports). */
static inline float mote_be_loadf32(const void *p)
{
    uint32_t u = mote_be_load32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline double mote_be_loadf64(const void *p)
{
    uint64_t u = mote_be_load64(p);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static inline void mote_be_storef32(void *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    mote_be_store32(p, u);
}

static inline void mote_be_storef64(void *p, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    mote_be_store64(p, u);
}

#ifdef __cplusplus
}
#endif

#endif /* MOTE_BE_H */

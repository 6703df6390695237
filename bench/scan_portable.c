/*
 * scan_portable.c - a second copy of src/scan.c built with MOTE_NO_SIMD,
 * under "portable_" names, so that bench_scan measures the portable path
 * beside the library's (SIMD where the host has it) in the same run.
 */
#define MOTE_NO_SIMD 1
#define mote_split portable_split
#define mote_scan_config_init portable_scan_config_init
#define mote_scan_init portable_scan_init
#define mote_scan_feed portable_scan_feed
#define mote_scan_finish portable_scan_finish
#define mote_scan_next portable_scan_next
#define mote_scan_pull portable_scan_pull
#define mote_scan_get_stats portable_scan_get_stats
#define mote_scan_delimiter portable_scan_delimiter
#define mote__scan_blk_const portable__scan_blk_const
#include "../src/scan.c"

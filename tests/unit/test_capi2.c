/*
 * test_capi2.c — the second half of test_capi's cases, those that run Lua
 * code (see tests/unit/test_capi.c: one image of both would not fit in
 * 256 KiB of flash).
 */
#define TEST_CAPI_PART 2
#include "tests/unit/test_capi.c"

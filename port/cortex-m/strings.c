/*
 * strings.c — the C library's string searches that the firmware uses,
 * in their plain form.  newlib's are built for speed on long strings
 * (strstr's two-way search alone is over a kilobyte, strcmp and strchr
 * compare a word at a time): rtlua calls them on option letters, names
 * and package paths of a few bytes, where a byte loop is as fast and a
 * tenth of the flash.  Defined here, the linker takes these and leaves
 * newlib's out; the meaning is the standard one.
 */
#include <string.h>

int strcmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a;
    const unsigned char *q = (const unsigned char *)b;
    while (*p != '\0' && *p == *q) {
        p++;
        q++;
    }
    return (int)*p - (int)*q;
}

char *strchr(const char *s, int c)
{
    char ch = (char)c;
    for (;; s++) {
        if (*s == ch)
            return (char *)s;
        if (*s == '\0')
            return NULL;
    }
}

/* The first place of needle in haystack, by trying each start in turn:
 * O(n * m) at worst, where the callers' needles are a few bytes. */
char *strstr(const char *haystack, const char *needle)
{
    size_t m = strlen(needle);
    for (const char *h = haystack;; h++) {
        if (strncmp(h, needle, m) == 0)
            return (char *)h;
        if (*h == '\0')
            return NULL;
    }
}

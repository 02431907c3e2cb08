/*
 * fmt.c — the port's own small formatter (no floating point, no heap).
 * Shared by the Cortex-M and host ports; output goes to a sink function.
 */
#include "port/port.h"

#include <stdbool.h>

typedef void (*sink_fn)(void *ctx, char c);

static void emit_padded(sink_fn sink, void *ctx, const char *s, size_t n,
                        int width, bool left, char pad)
{
    int fill = width > (int)n ? width - (int)n : 0;
    if (!left) {
        /* A zero pad goes after the sign. */
        if (pad == '0' && n > 0 && s[0] == '-') {
            sink(ctx, '-');
            s++;
            n--;
        }
        while (fill-- > 0)
            sink(ctx, pad);
    }
    for (size_t i = 0; i < n; i++)
        sink(ctx, s[i]);
    if (left)
        while (fill-- > 0)
            sink(ctx, ' ');
}

static size_t utoa_base(unsigned long long v, unsigned base, bool upper,
                        char *out)
{
    char tmp[24];
    size_t n = 0;
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
        tmp[n++] = digits[v % base];
        v /= base;
    } while (v != 0);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

static void format(sink_fn sink, void *ctx, const char *fmt, va_list ap)
{
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            sink(ctx, *fmt);
            continue;
        }
        fmt++;
        bool left = false;
        char pad = ' ';
        for (;; fmt++) {
            if (*fmt == '-')
                left = true;
            else if (*fmt == '0')
                pad = '0';
            else
                break;
        }
        int width = 0;
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (*fmt++ - '0');
        int longs = 0;
        bool size = false;
        while (*fmt == 'l') {
            longs++;
            fmt++;
        }
        if (*fmt == 'z') {
            size = true;
            fmt++;
        }
        char buf[26];
        size_t n = 0;
        switch (*fmt) {
        case 'd':
        case 'i': {
            long long v = longs >= 2   ? va_arg(ap, long long)
                          : longs == 1 ? va_arg(ap, long)
                          : size       ? (long long)va_arg(ap, ptrdiff_t)
                                       : va_arg(ap, int);
            unsigned long long u =
                v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
            if (v < 0)
                buf[n++] = '-';
            n += utoa_base(u, 10, false, buf + n);
            emit_padded(sink, ctx, buf, n, width, left, pad);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            unsigned long long v = longs >= 2 ? va_arg(ap, unsigned long long)
                                   : longs == 1 ? va_arg(ap, unsigned long)
                                   : size       ? va_arg(ap, size_t)
                                                : va_arg(ap, unsigned);
            n = utoa_base(v, *fmt == 'u' ? 10 : 16, *fmt == 'X', buf);
            emit_padded(sink, ctx, buf, n, width, left, pad);
            break;
        }
        case 'p': {
            uintptr_t v = (uintptr_t)va_arg(ap, void *);
            buf[0] = '0';
            buf[1] = 'x';
            n = 2 + utoa_base(v, 16, false, buf + 2);
            emit_padded(sink, ctx, buf, n, width, left, pad);
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (s == NULL)
                s = "(null)";
            size_t len = 0;
            while (s[len])
                len++;
            emit_padded(sink, ctx, s, len, width, left, ' ');
            break;
        }
        case 'c':
            buf[0] = (char)va_arg(ap, int);
            emit_padded(sink, ctx, buf, 1, width, left, ' ');
            break;
        case '%':
            sink(ctx, '%');
            break;
        case '\0':
            return;
        default:
            sink(ctx, '%');
            sink(ctx, *fmt);
            break;
        }
    }
}

static void console_sink(void *ctx, char c)
{
    (void)ctx;
    port_putc(c);
}

void port_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format(console_sink, NULL, fmt, ap);
    va_end(ap);
}

struct bufsink {
    char *buf;
    size_t cap;
    size_t len;
};

static void buffer_sink(void *ctx, char c)
{
    struct bufsink *b = ctx;
    if (b->len + 1 < b->cap)
        b->buf[b->len] = c;
    b->len++;
}

int port_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
    struct bufsink b = {buf, cap, 0};
    format(buffer_sink, &b, fmt, ap);
    if (cap > 0)
        buf[b.len < cap ? b.len : cap - 1] = '\0';
    return (int)b.len;
}

int port_snprintf(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = port_vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

/* The words for a reset cause (port_reset_cause). */
const char *port_reset_name(int cause)
{
    switch (cause) {
    case PORT_RESET_WATCHDOG:
        return "watchdog";
    case PORT_RESET_SOFTWARE:
        return "software";
    default:
        return "power-on";
    }
}

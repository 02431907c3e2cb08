/*
 * oslib.c — the os library (Lua 5.4 §6.9): time, clock, date, difftime,
 * getenv, exit, remove, rename, tmpname (host files through the port:
 * libc's on the host, semihosting's on a board).
 *
 * The calendar is rtlua's own: a proleptic Gregorian day count (days
 * since 1970-01-01) converted to and from civil dates, which also does
 * os.time's normalisation (month 14, day 35, hour 25 carry over as
 * mktime's do).  os.date formats with its own strftime covering every
 * C99 conversion in the C locale, E and O modifiers included, so no
 * libc locale or allocating time function is linked on the boards.
 *
 * The boards have no calendar clock: os.time() is the seconds since boot
 * (port_cycles64 / port_cycle_hz) and every date is UTC.  The host keeps
 * lua5.4's behaviour: time(), localtime_r and mktime for local dates,
 * clock() for CPU time, getenv; "!" dates use the calendar code here.
 */
#ifdef RTLUA_HOST
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>
#endif

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "port/port.h"
#include "romtab.h"
#include "rtlua.h"

/* Bytes of a name from os.tmpname, with its NUL. */
#define OS_TMPNAME_MAX 64
/* Seconds in a day. */
#define OS_DAY 86400
/* Widest single conversion os.date writes ("%c": 24 characters, a
 * year with up to 11 digits). */
#define OS_CONV_MAX 64
/* Exit statuses for os.exit(true) / os.exit(false). */
#define OS_EXIT_SUCCESS 0
#define OS_EXIT_FAILURE 1

/* A broken-down time, as struct tm but with a wide year. */
typedef struct os_tm {
    int64_t year; /* full year (1970, not 70) */
    int mon;      /* 0..11 */
    int mday;     /* 1..31 */
    int hour, min, sec;
    int wday;    /* 0..6, Sunday = 0 */
    int yday;    /* 0..365 */
    int isdst;   /* -1 unknown, 0 no, 1 yes */
    long gmtoff; /* seconds east of UTC */
    const char *zone;
} os_tm;

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int is_leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days from 1970-01-01 to the first of month mon (0..11) of year y,
 * counted in 400-year eras of 146097 days from 0000-03-01. */
static int64_t days_from_civil(int64_t y, int mon)
{
    int m = mon + 1;
    if (m <= 2)
        y--;
    int64_t era = floordiv(y, 400);
    int64_t yoe = y - era * 400;                         /* 0..399 */
    int64_t mp = m > 2 ? m - 3 : m + 9;                  /* March = 0 */
    int64_t doy = (153 * mp + 2) / 5;                    /* 0..365 */
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; /* 0..146096 */
    return era * 146097 + doe - 719468;
}

/* The UTC date of second t since the epoch. */
static void civil_from_time(int64_t t, os_tm *tm)
{
    int64_t days = floordiv(t, OS_DAY);
    int64_t secs = t - days * OS_DAY;
    tm->hour = (int)(secs / 3600);
    tm->min = (int)(secs / 60 % 60);
    tm->sec = (int)(secs % 60);
    tm->wday = (int)((days % 7 + 11) % 7); /* 1970-01-01 was a Thursday */
    int64_t z = days + 719468;
    int64_t era = floordiv(z, 146097);
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int mday = (int)(doy - (153 * mp + 2) / 5 + 1);
    int mon = (int)(mp < 10 ? mp + 2 : mp - 10);
    int64_t y = yoe + era * 400 + (mon <= 1);
    tm->year = y;
    tm->mon = mon;
    tm->mday = mday;
    tm->yday = (int)(days - days_from_civil(y, 0));
    tm->isdst = 0;
    tm->gmtoff = 0;
    tm->zone = "GMT";
}

/* Seconds since the epoch of a UTC date whose fields may be out of
 * range (they carry over). */
static int64_t time_from_civil(int64_t year, int64_t mon, int64_t mday,
                               int64_t hour, int64_t min, int64_t sec)
{
    year += floordiv(mon, 12);
    mon -= floordiv(mon, 12) * 12;
    int64_t days = days_from_civil(year, (int)mon) + mday - 1;
    return ((days * 24 + hour) * 60 + min) * 60 + sec;
}

/* Years the calendar code accepts, so that no intermediate overflows and
 * every year fits an int as struct tm needs on the host. */
#define OS_YEAR_MAX 2000000000LL

static int date_of(lua_State *L, int64_t t, int utc, os_tm *tm)
{
#ifdef RTLUA_HOST
    if (!utc) {
        time_t tt = (time_t)t;
        struct tm r;
        if ((int64_t)tt != t || localtime_r(&tt, &r) == NULL)
            return 0;
        tm->year = (int64_t)r.tm_year + 1900;
        tm->mon = r.tm_mon;
        tm->mday = r.tm_mday;
        tm->hour = r.tm_hour;
        tm->min = r.tm_min;
        tm->sec = r.tm_sec;
        tm->wday = r.tm_wday;
        tm->yday = r.tm_yday;
        tm->isdst = r.tm_isdst;
        tm->gmtoff = (long)(time_from_civil(tm->year, tm->mon, tm->mday,
                                            tm->hour, tm->min, tm->sec) -
                            t);
        tm->zone = tzname[r.tm_isdst > 0 ? 1 : 0];
        return 1;
    }
#endif
    (void)L;
    (void)utc;
    /* Beyond this many seconds the year leaves OS_YEAR_MAX. */
    const int64_t lim = OS_YEAR_MAX * 366 * OS_DAY;
    if (t > lim || t < -lim)
        return 0;
    civil_from_time(t, tm);
    return tm->year <= OS_YEAR_MAX && tm->year >= -OS_YEAR_MAX;
}

/* ---- os.time ------------------------------------------------------ */

static int64_t now(void)
{
#ifdef RTLUA_HOST
    return (int64_t)time(NULL);
#else
    uint32_t hz = port_cycle_hz();
    return hz ? (int64_t)(port_cycles64() / hz) : 0;
#endif
}

/* Field k of the table at 1 minus delta; d < 0: the field is required. */
static int get_field(lua_State *L, const char *k, int d, int delta)
{
    int isint;
    int t = lua_getfield(L, -1, k);
    lua_Integer res = lua_tointegerx(L, -1, &isint);
    if (!isint) {
        if (t != LUA_TNIL)
            return luaL_error(L, "field '%s' is not an integer", k);
        if (d < 0)
            return luaL_error(L, "field '%s' missing in date table", k);
        res = d;
    } else {
        if (!(res >= 0 ? res - delta <= INT_MAX
                       : (lua_Integer)INT_MIN + delta <= res))
            return luaL_error(L, "field '%s' is out-of-bound", k);
        res -= delta;
    }
    lua_pop(L, 1);
    return (int)res;
}

static void set_field(lua_State *L, const char *k, int64_t v, int delta)
{
    lua_pushinteger(L, (lua_Integer)(v + delta));
    lua_setfield(L, -2, k);
}

static void set_all_fields(lua_State *L, const os_tm *tm)
{
    set_field(L, "year", tm->year, 0);
    set_field(L, "month", tm->mon, 1);
    set_field(L, "day", tm->mday, 0);
    set_field(L, "hour", tm->hour, 0);
    set_field(L, "min", tm->min, 0);
    set_field(L, "sec", tm->sec, 0);
    set_field(L, "yday", tm->yday, 1);
    set_field(L, "wday", tm->wday, 1);
    if (tm->isdst >= 0) {
        lua_pushboolean(L, tm->isdst);
        lua_setfield(L, -2, "isdst");
    }
}

static int push_time(lua_State *L, int64_t t)
{
    if ((int64_t)(lua_Integer)t != t)
        return luaL_error(L, "time result cannot be represented in this "
                             "installation");
    lua_pushinteger(L, (lua_Integer)t);
    return 1;
}

static int os_time(lua_State *L)
{
    if (lua_isnoneornil(L, 1))
        return push_time(L, now());
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    int year = get_field(L, "year", -1, 1900);
    int mon = get_field(L, "month", -1, 1);
    int mday = get_field(L, "day", -1, 0);
    int hour = get_field(L, "hour", 12, 0);
    int min = get_field(L, "min", 0, 0);
    int sec = get_field(L, "sec", 0, 0);
    lua_getfield(L, 1, "isdst");
    int isdst = lua_isnil(L, -1) ? -1 : lua_toboolean(L, -1);
    lua_pop(L, 1);
    int64_t t;
    os_tm tm;
#ifdef RTLUA_HOST
    struct tm r;
    memset(&r, 0, sizeof r);
    r.tm_year = year;
    r.tm_mon = mon;
    r.tm_mday = mday;
    r.tm_hour = hour;
    r.tm_min = min;
    r.tm_sec = sec;
    r.tm_isdst = isdst;
    time_t tt = mktime(&r);
    if (tt == (time_t)-1)
        return luaL_error(L, "time result cannot be represented in this "
                             "installation");
    t = (int64_t)tt;
#else
    (void)isdst;
    t = time_from_civil((int64_t)year + 1900, mon, mday, hour, min, sec);
#endif
    if (!date_of(L, t, 0, &tm))
        return luaL_error(L, "time result cannot be represented in this "
                             "installation");
    set_all_fields(L, &tm);
    return push_time(L, t);
}

static int64_t check_time(lua_State *L, int arg)
{
    return (int64_t)luaL_checkinteger(L, arg);
}

static int os_difftime(lua_State *L)
{
    int64_t t1 = check_time(L, 1);
    int64_t t2 = check_time(L, 2);
    lua_pushnumber(L, (lua_Number)(t1 - t2));
    return 1;
}

static int os_clock(lua_State *L)
{
#ifdef RTLUA_HOST
    lua_pushnumber(L, (lua_Number)clock() / (lua_Number)CLOCKS_PER_SEC);
#else
    uint32_t hz = port_cycle_hz();
    uint64_t c = port_cycles64();
    /* Whole seconds and the fraction apart, so a float keeps the
     * fraction's precision for a while after boot. */
    lua_pushnumber(L, hz ? (lua_Number)(c / hz) +
                               (lua_Number)(c % hz) / (lua_Number)hz
                         : 0);
#endif
    return 1;
}

/* ---- os.date: strftime in the C locale ----------------------------- */

static const char *const day_names[7] = {"Sunday",    "Monday",   "Tuesday",
                                         "Wednesday", "Thursday", "Friday",
                                         "Saturday"};
static const char *const month_names[12] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

/* Conversions that take no modifier, then those E and O accept. */
static const char conv_plain[] = "aAbBcCdDeFgGhHIjmMnprRStTuUVwWxXyYzZ%";
static const char conv_e[] = "cCxXyY";
static const char conv_o[] = "deHImMSuUVwWy";

/* The ISO 8601 week-based year and week (1..53) of tm. */
static void iso_week(const os_tm *tm, int64_t *year, int *week)
{
    int wmon = (tm->wday + 6) % 7; /* Monday = 0 */
    int w = (tm->yday - wmon + 10) / 7;
    int64_t y = tm->year;
    /* Weekday (Monday = 0) of January 1st of this year. */
    int jan1 = ((wmon - tm->yday) % 7 + 7) % 7;
    if (w < 1) {
        int plen = is_leap(y - 1) ? 366 : 365;
        int pjan1 = ((jan1 - plen) % 7 + 7) % 7;
        y--;
        w = (pjan1 == 3 || (pjan1 == 2 && is_leap(y))) ? 53 : 52;
    } else if (w == 53) {
        if (!(jan1 == 3 || (jan1 == 2 && is_leap(y)))) {
            w = 1;
            y++;
        }
    }
    *year = y;
    *week = w;
}

static void add_num(luaL_Buffer *b, int64_t v, int width, char pad)
{
    char buf[OS_CONV_MAX];
    int n = 0;
    int neg = v < 0;
    uint64_t u = neg ? 0u - (uint64_t)v : (uint64_t)v;
    do {
        buf[sizeof buf - 1 - n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (neg)
        width--;
    while (n < width)
        buf[sizeof buf - 1 - n++] = pad;
    if (neg)
        buf[sizeof buf - 1 - n++] = '-';
    luaL_addlstring(b, buf + sizeof buf - n, (size_t)n);
}

static void add_conv(luaL_Buffer *b, char c, const os_tm *tm);

static void add_seq(luaL_Buffer *b, const char *seq, const os_tm *tm)
{
    for (; *seq; seq++) {
        if (*seq == '%')
            add_conv(b, *++seq, tm);
        else
            luaL_addchar(b, *seq);
    }
}

static void add_conv(luaL_Buffer *b, char c, const os_tm *tm)
{
    int64_t iy;
    int iw;
    switch (c) {
    case 'a':
        luaL_addlstring(b, day_names[tm->wday], 3);
        break;
    case 'A':
        luaL_addstring(b, day_names[tm->wday]);
        break;
    case 'b':
    case 'h':
        luaL_addlstring(b, month_names[tm->mon], 3);
        break;
    case 'B':
        luaL_addstring(b, month_names[tm->mon]);
        break;
    case 'c':
        add_seq(b, "%a %b %e %H:%M:%S %Y", tm);
        break;
    case 'C':
        add_num(b, floordiv(tm->year, 100), 2, '0');
        break;
    case 'd':
        add_num(b, tm->mday, 2, '0');
        break;
    case 'D':
    case 'x':
        add_seq(b, "%m/%d/%y", tm);
        break;
    case 'e':
        add_num(b, tm->mday, 2, ' ');
        break;
    case 'F':
        add_seq(b, "%Y-%m-%d", tm);
        break;
    case 'g':
        iso_week(tm, &iy, &iw);
        add_num(b, (iy % 100 + 100) % 100, 2, '0');
        break;
    case 'G':
        iso_week(tm, &iy, &iw);
        add_num(b, iy, 1, '0');
        break;
    case 'H':
        add_num(b, tm->hour, 2, '0');
        break;
    case 'I':
        add_num(b, (tm->hour + 11) % 12 + 1, 2, '0');
        break;
    case 'j':
        add_num(b, tm->yday + 1, 3, '0');
        break;
    case 'm':
        add_num(b, tm->mon + 1, 2, '0');
        break;
    case 'M':
        add_num(b, tm->min, 2, '0');
        break;
    case 'n':
        luaL_addchar(b, '\n');
        break;
    case 'p':
        luaL_addstring(b, tm->hour < 12 ? "AM" : "PM");
        break;
    case 'r':
        add_seq(b, "%I:%M:%S %p", tm);
        break;
    case 'R':
        add_seq(b, "%H:%M", tm);
        break;
    case 'S':
        add_num(b, tm->sec, 2, '0');
        break;
    case 't':
        luaL_addchar(b, '\t');
        break;
    case 'T':
    case 'X':
        add_seq(b, "%H:%M:%S", tm);
        break;
    case 'u':
        add_num(b, tm->wday == 0 ? 7 : tm->wday, 1, '0');
        break;
    case 'U':
        add_num(b, (tm->yday + 7 - tm->wday) / 7, 2, '0');
        break;
    case 'V':
        iso_week(tm, &iy, &iw);
        add_num(b, iw, 2, '0');
        break;
    case 'w':
        add_num(b, tm->wday, 1, '0');
        break;
    case 'W':
        add_num(b, (tm->yday + 7 - (tm->wday + 6) % 7) / 7, 2, '0');
        break;
    case 'y':
        add_num(b, (tm->year % 100 + 100) % 100, 2, '0');
        break;
    case 'Y':
        add_num(b, tm->year, 1, '0');
        break;
    case 'z': {
        long off = tm->gmtoff;
        luaL_addchar(b, off < 0 ? '-' : '+');
        if (off < 0)
            off = -off;
        add_num(b, off / 3600 * 100 + off / 60 % 60, 4, '0');
        break;
    }
    case 'Z':
        luaL_addstring(b, tm->zone ? tm->zone : "");
        break;
    default: /* '%' */
        luaL_addchar(b, '%');
        break;
    }
}

/* Checks the conversion at s (after '%'); returns its length with any
 * modifier, or raises the error lua5.4 gives. */
static size_t check_conv(lua_State *L, const char *s, const char *end)
{
    if (s < end && *s != '\0' && strchr(conv_plain, *s))
        return 1;
    if (s + 1 < end && s[1] != '\0' &&
        ((*s == 'E' && strchr(conv_e, s[1])) ||
         (*s == 'O' && strchr(conv_o, s[1]))))
        return 2;
    /* lua5.4 quotes the whole rest of the format. */
    luaL_argerror(L, 1,
                  lua_pushfstring(L, "invalid conversion specifier '%%%s'",
                                  lua_pushlstring(L, s, (size_t)(end - s))));
    return 0;
}

static int os_date(lua_State *L)
{
    size_t len;
    const char *s = luaL_optlstring(L, 1, "%c", &len);
    int64_t t = luaL_opt(L, check_time, 2, now());
    const char *end = s + len;
    int utc = 0;
    if (*s == '!') {
        utc = 1;
        s++;
    }
    os_tm tm;
    if (!date_of(L, t, utc, &tm))
        return luaL_error(L, "date result cannot be represented in this "
                             "installation");
    if (strcmp(s, "*t") == 0) {
        lua_createtable(L, 0, 9);
        set_all_fields(L, &tm);
        return 1;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    while (s < end) {
        if (*s != '%') {
            luaL_addchar(&b, *s++);
            continue;
        }
        s++;
        size_t n = check_conv(L, s, end);
        add_conv(&b, s[n - 1], &tm);
        s += n;
    }
    luaL_pushresult(&b);
    return 1;
}

/* ---- environment, exit, files -------------------------------------- */

static int os_getenv(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
#ifdef RTLUA_HOST
    const char *v = getenv(name);
    if (v != NULL) {
        lua_pushstring(L, v);
        return 1;
    }
#else
    (void)name;
#endif
    luaL_pushfail(L);
    return 1;
}

static int os_exit(lua_State *L)
{
    int status;
    if (lua_isboolean(L, 1))
        status = lua_toboolean(L, 1) ? OS_EXIT_SUCCESS : OS_EXIT_FAILURE;
    else
        status = (int)luaL_optinteger(L, 1, OS_EXIT_SUCCESS);
    if (lua_toboolean(L, 2))
        lua_close(L);
    port_exit(status);
}

static int os_setlocale(lua_State *L)
{
    /* Only the C locale exists: asking for it (or querying) succeeds. */
    static const char *const cats[] = {
        "all", "collate", "ctype", "monetary", "numeric", "time", NULL};
    const char *l = luaL_optstring(L, 1, NULL);
    luaL_checkoption(L, 2, "all", cats);
    if (l == NULL || *l == '\0' || strcmp(l, "C") == 0 ||
        strcmp(l, "POSIX") == 0)
        lua_pushliteral(L, "C");
    else
        luaL_pushfail(L);
    return 1;
}

/* The results of a host file operation that returned en (0: done), as
 * luaL_fileresult's, with the port's words for the host's errno. */
static int file_result(lua_State *L, int en, const char *fname)
{
    if (en == 0) {
        lua_pushboolean(L, 1);
        return 1;
    }
    luaL_pushfail(L);
    if (fname != NULL)
        lua_pushfstring(L, "%s: %s", fname, port_file_strerror(en));
    else
        lua_pushstring(L, port_file_strerror(en));
    lua_pushinteger(L, en > 0 ? en : 0);
    return 3;
}

static int os_remove(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    return file_result(L, port_file_remove(name), name);
}

static int os_rename(lua_State *L)
{
    const char *from = luaL_checkstring(L, 1);
    const char *to = luaL_checkstring(L, 2);
    return file_result(L, port_file_rename(from, to), NULL);
}

static int os_tmpname(lua_State *L)
{
    char name[OS_TMPNAME_MAX];
    if (port_file_tmpname(name, sizeof name) != 0)
        return luaL_error(L, "unable to generate a unique filename");
    lua_pushstring(L, name);
    return 1;
}

int luaopen_os(lua_State *L)
{
    rtlua_pushrom(L, &romtab_os);
    return 1;
}

#define ROMTAB_FILE_oslib
#include "romtab.inc"

/*
 * rtluac.c — the image compiler: Lua sources to a flash image for one
 * firmware (docs/images.md; the format is lang/image.h).
 *
 *   rtluac -f FIRMWARE [-o OUT] [-s] [-m MODULE] [-v] (DIR | FILE.lua...)
 *   rtluac -f FIRMWARE -c IMAGE
 *
 * FIRMWARE is the ELF the image is for: build/<board>/rtlua.elf (or the
 * build with the application linked in), or build/host/rtlua.  From it
 * rtluac reads the firmware's layout (the object rtlua_image_abi), where
 * its image region is, and its ROM strings and where each lies
 * (romstr_ptrs): the image points at those equal to its strings (a
 * firmware built with user C modules has more than this program).  The sources
 * are compiled by this program's compiler, which must have the firmware's
 * number model; when it has not, rtluac runs its sibling of the other model
 * (build/host-num32/rtluac for build/host's, as the Makefile names them:
 * RTLUAC_DIR_NUM32 and RTLUAC_DIR_NUM64) if it is there.
 *
 * DIR is an application folder: every .lua file under it is a module
 * named by its path ("filter.lua" is filter, "net/mqtt.lua" net.mqtt,
 * "net/init.lua" net), its source name that path ("@filter.lua"), as a
 * run from source finds it with package.path "?.lua;?/init.lua" in DIR.
 * FILEs are modules named by their base names, with their paths as given
 * for source names.  The module run at boot is -m's, else "main" when
 * there is one, else the first FILE.  -s leaves out line information,
 * local and upvalue names and source names.  -v prints what went in.
 *
 * -c checks that IMAGE's header says it was made for FIRMWARE (the same
 * layout, ROM strings and image region; the firmware checks the rest when
 * it boots).
 *
 * Exit status 0, or 1 with a message: a compile error (as rtlua prints
 * it), a firmware that is not one, an image larger than the region.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "include/lauxlib.h"
#include "include/lua.h"
#include "lang/image.h"
#include "romstr.h"
#include "tools/imgwrite.h"
#include "vm/str.h"

/* Most source files of one image. */
#define RTLUAC_MAX_FILES 4096

static const char *prog = "rtluac";

_Noreturn static void die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

_Noreturn static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        die("out of memory");
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        die("cannot open %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = xmalloc(cap);
    size_t got;
    while ((got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            b = realloc(b, cap);
            if (b == NULL)
                die("out of memory");
        }
    }
    if (ferror(f))
        die("cannot read %s", path);
    fclose(f);
    *len = n;
    return b;
}

/* ---- The firmware's ELF ------------------------------------------------- */

typedef struct elf {
    const char *path;
    uint8_t *b;
    size_t len;
    int is64;
} elf;

static uint64_t rd(const elf *E, uint64_t off, unsigned n)
{
    if (off > E->len || n > E->len - off)
        die("%s: truncated ELF", E->path);
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)E->b[off + i] << (8 * i);
    return v;
}

/* Section header i's field: (32-bit offset, 64-bit offset, 32/64 size). */
static uint64_t shdr(const elf *E, uint64_t i, unsigned o32, unsigned o64,
                     int wide)
{
    uint64_t shoff = E->is64 ? rd(E, 0x28, 8) : rd(E, 0x20, 4);
    uint64_t shentsize = E->is64 ? rd(E, 0x3A, 2) : rd(E, 0x2E, 2);
    uint64_t at = shoff + i * shentsize;
    return E->is64 ? rd(E, at + o64, wide ? 8 : 4) : rd(E, at + o32, 4);
}

#define SH_TYPE(E, i) shdr(E, i, 0x04, 0x04, 0)
#define SH_FLAGS(E, i) shdr(E, i, 0x08, 0x08, 1)
#define SH_ADDR(E, i) shdr(E, i, 0x0C, 0x10, 1)
#define SH_OFFSET(E, i) shdr(E, i, 0x10, 0x18, 1)
#define SH_SIZE(E, i) shdr(E, i, 0x14, 0x20, 1)
#define SH_LINK(E, i) shdr(E, i, 0x18, 0x28, 0)

static uint64_t nsections(const elf *E)
{
    return E->is64 ? rd(E, 0x3C, 2) : rd(E, 0x30, 2);
}

static void elf_open(elf *E, const char *path)
{
    E->path = path;
    E->b = read_file(path, &E->len);
    if (E->len < 0x34 || memcmp(E->b, ELFMAG, SELFMAG) != 0)
        die("%s: not an ELF file", path);
    if (E->b[EI_DATA] != ELFDATA2LSB)
        die("%s: not little-endian", path);
    E->is64 = E->b[EI_CLASS] == ELFCLASS64;
    if (rd(E, 0x10, 2) == ET_DYN)
        die("%s is position-independent: where its ROM strings lie is only "
            "known when it runs (link it with -no-pie)",
            path);
}

/* The address of symbol name (and its size in *size), or 0. */
static uint64_t elf_symbol(const elf *E, const char *name, uint64_t *size)
{
    size_t nlen = strlen(name);
    for (uint64_t i = 0; i < nsections(E); i++) {
        if (SH_TYPE(E, i) != SHT_SYMTAB)
            continue;
        uint64_t off = SH_OFFSET(E, i), n = SH_SIZE(E, i);
        uint64_t stroff = SH_OFFSET(E, SH_LINK(E, i));
        uint64_t esize = E->is64 ? 24 : 16;
        for (uint64_t s = off; s + esize <= off + n; s += esize) {
            uint64_t nm = stroff + rd(E, s, 4);
            if (nm + nlen + 1 > E->len ||
                memcmp(E->b + nm, name, nlen + 1) != 0)
                continue;
            *size = E->is64 ? rd(E, s + 16, 8) : rd(E, s + 8, 4);
            return E->is64 ? rd(E, s + 8, 8) : rd(E, s + 4, 4);
        }
    }
    *size = 0;
    return 0;
}

/* The file offset of n bytes at address addr (in a section with
 * contents). */
static uint64_t elf_at(const elf *E, uint64_t addr, uint64_t n)
{
    for (uint64_t i = 0; i < nsections(E); i++) {
        uint64_t a = SH_ADDR(E, i), sz = SH_SIZE(E, i);
        if (!(SH_FLAGS(E, i) & SHF_ALLOC) || SH_TYPE(E, i) == SHT_NOBITS)
            continue;
        if (addr >= a && addr - a <= sz && n <= sz - (addr - a))
            return SH_OFFSET(E, i) + (addr - a);
    }
    die("%s: no contents at 0x%llx", E->path, (unsigned long long)addr);
}

/* ---- The target --------------------------------------------------------- */

static void run_sibling(char **argv, unsigned num)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 64);
    if (n <= 0)
        return;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash == NULL)
        return;
    *slash = '\0';
    char *dir = strrchr(self, '/');
    if (dir == NULL)
        return;
    /* build/host or build/host-num32 -> the other one (the Makefile
     * names both directories) */
    strcpy(dir + 1, num == 32 ? RTLUAC_DIR_NUM32 "/rtluac"
                              : RTLUAC_DIR_NUM64 "/rtluac");
    if (access(self, X_OK) == 0) {
        execv(self, argv);
        die("cannot run %s: %s", self, strerror(errno));
    }
}

static void load_target(imgw_target *t, const char *path, char **argv,
                        int verbose)
{
    elf E;
    elf_open(&E, path);
    uint64_t sz;
    uint64_t abiaddr = elf_symbol(&E, "rtlua_image_abi", &sz);
    if (abiaddr == 0)
        die("%s has no rtlua_image_abi: not an rtlua firmware with flash "
            "images",
            path);
    uint64_t need = rd(&E,
                       elf_at(&E, abiaddr, offsetof(img_abi, off)) +
                           offsetof(img_abi, regionoff),
                       4);
    const uint8_t *abi = E.b + elf_at(&E, abiaddr, need);
    const char *why = imgw_target_from(t, abi, need);
    if (why != NULL)
        die("%s: %s", path, why);
    if (t->num != RTLUA_NUM) {
        run_sibling(argv, t->num);
        die("%s has %u-bit numbers and this rtluac compiles for %d-bit ones; "
            "build the other (make host RTLUA_NUM=%u) and use it",
            path, (unsigned)t->num, RTLUA_NUM, (unsigned)t->num);
    }
    unsigned ps = t->ptrsize;
    uint64_t ptrs = elf_at(&E, abiaddr + need, 3 * (uint64_t)ps);
    uint64_t region = rd(&E, ptrs, ps), regionend = rd(&E, ptrs + ps, ps);
    uint64_t romptrs = rd(&E, ptrs + 2 * ps, ps);
    if (regionend <= region)
        die("%s: its image region is empty", path);
    t->base = region;
    t->capacity = regionend - region;
    /* Its ROM strings, from the ELF: an image points at those equal to
     * its strings (the firmware's set may differ from this program's:
     * user C modules add theirs). */
    uint32_t n = t->romcount;
    uint64_t *romaddr = xmalloc(sizeof(uint64_t) * (n + 1));
    const char **romdata = xmalloc(sizeof(char *) * (n + 1));
    uint8_t *romlen = xmalloc(n + 1);
    uint64_t at = elf_at(&E, romptrs, (uint64_t)ps * n);
    uint64_t head = t->size[IMGT_STR];
    uint32_t sig = 0;
    for (uint32_t i = 0; i < n; i++) {
        romaddr[i] = rd(&E, at + (uint64_t)i * ps, ps);
        uint64_t s = elf_at(&E, romaddr[i], head + 1);
        uint8_t len = (uint8_t)rd(&E, s + t->off[IMGF_STR_SHRLEN], 1);
        if (len > STR_SHORT_MAX)
            die("%s: its ROM string %u is not a short string", path,
                (unsigned)i);
        s = elf_at(&E, romaddr[i], head + len + 1);
        romdata[i] = (const char *)E.b + s + head;
        romlen[i] = len;
        uint8_t a[8];
        for (unsigned k = 0; k < ps; k++)
            a[k] = (uint8_t)(romaddr[i] >> (8 * k));
        sig = img_crc32(sig, a, ps);
        sig = img_crc32(sig, &len, 1);
        sig = img_crc32(sig, romdata[i], len);
    }
    t->romsig = sig;
    t->romaddr = romaddr;
    t->romdata = romdata;
    t->romlen = romlen;
    if (verbose)
        printf("firmware %s: %u-bit numbers, %u-byte pointers, image region "
               "0x%llx, %llu bytes\n",
               path, (unsigned)t->num, ps, (unsigned long long)region,
               (unsigned long long)t->capacity);
}

/* ---- Sources ------------------------------------------------------------ */

typedef struct source {
    char *path;  /* to read */
    char *name;  /* module */
    char *chunk; /* "@" source name */
} source;

static source files[RTLUAC_MAX_FILES];
static int nfiles;

static void add_file(const char *path, const char *rel, int from_dir)
{
    if (nfiles == RTLUAC_MAX_FILES)
        die("more than %d files", RTLUAC_MAX_FILES);
    source *f = &files[nfiles++];
    f->path = xstrdup(path);
    f->chunk = xmalloc(strlen(rel) + 2);
    f->chunk[0] = '@';
    strcpy(f->chunk + 1, rel);
    const char *base = from_dir ? rel : strrchr(rel, '/');
    base = base == NULL ? rel : base + (from_dir ? 0 : 1);
    size_t n = strlen(base);
    if (n < 5 || strcmp(base + n - 4, ".lua") != 0)
        die("%s: not a .lua file", path);
    f->name = xmalloc(n);
    memcpy(f->name, base, n - 4);
    f->name[n - 4] = '\0';
    for (char *c = f->name; *c; c++)
        if (*c == '/')
            *c = '.';
    size_t m = strlen(f->name);
    if (from_dir && m > 5 && strcmp(f->name + m - 5, ".init") == 0)
        f->name[m - 5] = '\0';
    else if (from_dir && strcmp(f->name, "init") == 0)
        die("%s: an init.lua at the top names no module", path);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* a/b into buf (RTLUAC_PATH_MAX bytes); b alone when a is empty. */
#define RTLUAC_PATH_MAX 4096
static void join(char *buf, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la + lb + 2 > RTLUAC_PATH_MAX)
        die("path too long: %s/%s", a, b);
    memcpy(buf, a, la);
    if (la > 0)
        buf[la++] = '/';
    memcpy(buf + la, b, lb + 1);
}

/* Every .lua file under root/rel, in name order. */
static void walk(const char *root, const char *rel)
{
    char path[RTLUAC_PATH_MAX];
    join(path, root, rel);
    DIR *d = opendir(path);
    if (d == NULL)
        die("cannot open %s: %s", path, strerror(errno));
    char *names[RTLUAC_MAX_FILES];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == RTLUAC_MAX_FILES)
            die("%s: too many entries", path);
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    for (int i = 0; i < n; i++) {
        char sub[RTLUAC_PATH_MAX], full[RTLUAC_PATH_MAX];
        join(sub, rel, names[i]);
        join(full, root, sub);
        struct stat st;
        if (stat(full, &st) != 0)
            die("cannot stat %s", full);
        size_t len = strlen(names[i]);
        if (S_ISDIR(st.st_mode))
            walk(root, sub);
        else if (len > 4 && strcmp(names[i] + len - 4, ".lua") == 0)
            add_file(full, sub, 1);
        free(names[i]);
    }
}

/* -c IMAGE: the header of an image made for this firmware (it does not
 * check the rest: the firmware does, at boot). */
static void check_image(const imgw_target *t, const char *fw, const char *path)
{
    size_t len;
    uint8_t *b = read_file(path, &len);
    elf E = {path, b, len, 0};
    if (len < t->size[IMGT_HEADER] ||
        memcmp(b + t->off[IMGF_H_MAGIC], IMG_MAGIC, IMG_MAGIC_LEN) != 0)
        die("%s: not an image", path);
#define FIELD(f) rd(&E, t->off[IMGF_##f], t->width[IMGF_##f])
    if (FIELD(H_VERSION) != IMG_VERSION || FIELD(H_NUM) != t->num ||
        FIELD(H_ABISIG) != t->abisig)
        die("%s was made for another build layout than %s", path, fw);
    if (FIELD(H_ROMSIG) != t->romsig)
        die("%s was made for another firmware than %s (its ROM strings "
            "differ)",
            path, fw);
    if (FIELD(H_SELF) != t->base || FIELD(H_SIZE) > t->capacity ||
        FIELD(H_SIZE) != len)
        die("%s does not lie in %s's image region", path, fw);
#undef FIELD
    free(b);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: %s -f FIRMWARE [-o OUT] [-s] [-m MODULE] [-v] "
            "(DIR | FILE.lua...)\n"
            "  -f FIRMWARE  the ELF the image is for (build/BOARD/rtlua.elf, "
            "build/host/rtlua)\n"
            "  -o OUT       the image file (default app.img)\n"
            "  -s           strip line information and names\n"
            "  -m MODULE    the module run at boot (default main, or the "
            "first file)\n"
            "  -v           say what went in\n"
            "  -c IMAGE     check that IMAGE was made for FIRMWARE\n",
            prog);
    exit(2);
}

int main(int argc, char **argv)
{
    const char *fw = NULL, *out = "app.img", *mainname = NULL, *check = NULL;
    int strip = 0, verbose = 0, i;
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-f") == 0 && i + 1 < argc)
            fw = argv[++i];
        else if (strcmp(a, "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(a, "-m") == 0 && i + 1 < argc)
            mainname = argv[++i];
        else if (strcmp(a, "-s") == 0)
            strip = 1;
        else if (strcmp(a, "-v") == 0)
            verbose = 1;
        else if (strcmp(a, "-c") == 0 && i + 1 < argc)
            check = argv[++i];
        else if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else
            usage();
    }
    if (fw == NULL || (i >= argc && check == NULL))
        usage();
    imgw_target t;
    load_target(&t, fw, argv, verbose);
    if (check != NULL) {
        check_image(&t, fw, check);
        return 0;
    }

    struct stat st;
    if (argc - i == 1 && stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
        walk(argv[i], "");
        if (nfiles == 0)
            die("%s: no .lua file in it", argv[i]);
    } else {
        for (; i < argc; i++)
            add_file(argv[i], argv[i], 0);
    }

    lua_State *L = luaL_newstate();
    if (L == NULL)
        die("cannot create a state");
    luaL_checkstack(L, nfiles + 8, "too many files");
    imgw_module *mods = xmalloc(sizeof(imgw_module) * (size_t)nfiles);
    int mainmod = -1;
    for (int k = 0; k < nfiles; k++) {
        size_t len;
        uint8_t *src = read_file(files[k].path, &len);
        if (luaL_loadbufferx(L, (const char *)src, len, files[k].chunk, "t") !=
            LUA_OK)
            die("%s", lua_tostring(L, -1));
        free(src);
        const lclosure *cl = gco2lcl(gc_of(L->top - 1));
        mods[k].name = files[k].name;
        mods[k].main = cl->p;
        if (mainname != NULL ? strcmp(files[k].name, mainname) == 0
                             : strcmp(files[k].name, "main") == 0)
            mainmod = k;
        if (verbose)
            printf("module %s from %s (%s)\n", files[k].name, files[k].path,
                   files[k].chunk);
    }
    if (mainname != NULL && mainmod < 0)
        die("no module '%s' to run at boot", mainname);
    if (mainmod < 0 &&
        !(argc > 0 && stat(argv[argc - 1], &st) == 0 && S_ISDIR(st.st_mode)))
        mainmod = 0;
    char err[256];
    size_t size;
    uint8_t *img =
        imgw_write(&t, mods, nfiles, mainmod, strip, &size, err, sizeof err);
    if (img == NULL)
        die("%s", err);
    FILE *f = fopen(out, "wb");
    if (f == NULL || fwrite(img, 1, size, f) != size || fclose(f) != 0)
        die("cannot write %s", out);
    if (verbose)
        printf("image %s: %zu bytes at 0x%llx (%d modules, main %s)\n", out,
               size, (unsigned long long)t.base, nfiles,
               mainmod >= 0 ? files[mainmod].name : "none");
    free(img);
    free(mods);
    lua_close(L);
    return 0;
}

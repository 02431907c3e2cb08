/*
 * dump.c — the binary-chunk writer, dump_function (the format is in
 * lang/dump.h); lua_dump calls it (lang/capi.c).
 *
 * Small items are gathered in a staging buffer and handed to the writer
 * DUMP_STAGE bytes at a time; the code array and string bytes go to the
 * writer straight from the prototype.  Nothing here allocates, and no
 * pointer into the Lua stack is kept across a writer call (string.dump's
 * writer pushes onto the stack).
 */
#include "lang/dump.h"

#include "vm/do.h"
#include "vm/str.h"

#include <string.h>

/* Bytes gathered before a writer call. */
#define DUMP_STAGE 128
/* Most bytes of one varint (32 bits, 7 a byte). */
#define DUMP_VARINT_MAX 5

typedef struct dumpstate {
    lua_State *L;
    lua_Writer writer;
    void *data;
    int strip;
    int status;    /* the writer's first non-zero answer */
    size_t offset; /* bytes of the chunk so far (staged ones included) */
    size_t nstage;
    uint8_t stage[DUMP_STAGE];
} dumpstate;

static void flush(dumpstate *D)
{
    if (D->nstage > 0 && D->status == 0)
        D->status = D->writer(D->L, D->stage, D->nstage, D->data);
    D->nstage = 0;
}

static void put(dumpstate *D, const void *b, size_t n)
{
    if (n == 0) /* an empty array may be NULL */
        return;
    if (n > DUMP_STAGE - D->nstage) {
        flush(D);
        if (n > DUMP_STAGE) { /* big: straight from where it is */
            if (D->status == 0)
                D->status = D->writer(D->L, b, n, D->data);
            D->offset += n;
            return;
        }
    }
    memcpy(D->stage + D->nstage, b, n);
    D->nstage += n;
    D->offset += n;
}

static void putbyte(dumpstate *D, unsigned b)
{
    uint8_t x = (uint8_t)b;
    put(D, &x, 1);
}

static void putvarint(dumpstate *D, uint32_t v)
{
    uint8_t b[DUMP_VARINT_MAX];
    size_t n = 0;
    do {
        b[n] = (uint8_t)(v & 0x7Fu);
        v >>= 7;
        if (v != 0)
            b[n] |= 0x80u;
        n++;
    } while (v != 0);
    put(D, b, n);
}

static void putstring(dumpstate *D, const str *s)
{
    if (s == NULL) {
        putvarint(D, 0);
        return;
    }
    size_t len = str_len(s);
    putvarint(D, (uint32_t)len + 1u);
    put(D, str_data(s), len);
}

static void putheader(dumpstate *D, const proto *f)
{
    uint32_t check = DUMP_CHECKWORD;
    rt_num checknum = (rt_num)DUMP_CHECKNUM;
    put(D, DUMP_SIGNATURE, DUMP_SIGNATURE_LEN);
    putbyte(D, DUMP_VERSION);
    putbyte(D, sizeof(rt_int));
    putbyte(D, sizeof(rt_num));
    putbyte(D, sizeof(instr));
    putbyte(D, 0);
    putbyte(D, (unsigned)f->sizeupvalues);
    put(D, &check, sizeof(check));
    put(D, &checknum, sizeof(checknum));
}

static void putcode(dumpstate *D, const proto *f)
{
    putvarint(D, (uint32_t)f->sizecode);
    while (D->offset % DUMP_CODE_ALIGN != 0)
        putbyte(D, 0);
    put(D, f->code, sizeof(instr) * (size_t)f->sizecode);
}

static void putconstants(dumpstate *D, const proto *f)
{
    putvarint(D, (uint32_t)f->sizek);
    for (int i = 0; i < f->sizek; i++) {
        const tvalue *o = &f->k[i];
        switch (tt_of(o)) {
        case V_FALSE:
            putbyte(D, DUMP_K_FALSE);
            break;
        case V_TRUE:
            putbyte(D, DUMP_K_TRUE);
            break;
        case V_INT:
            putbyte(D, DUMP_K_INT);
            put(D, &o->v.i, sizeof(rt_int));
            break;
        case V_FLT:
            putbyte(D, DUMP_K_FLT);
            put(D, &o->v.n, sizeof(rt_num));
            break;
        case V_SHRSTR:
        case V_LNGSTR:
            putbyte(D, DUMP_K_STR);
            putstring(D, gco2str(gc_of(o)));
            break;
        default: /* nil: the compiler's constants are of these types */
            putbyte(D, DUMP_K_NIL);
            break;
        }
    }
}

static void putfunction(dumpstate *D, const proto *f, const str *psource);

static void putdebug(dumpstate *D, const proto *f)
{
    putvarint(D, (uint32_t)f->sizelineinfo);
    put(D, f->lineinfo, (size_t)f->sizelineinfo);
    putvarint(D, (uint32_t)f->sizeabslineinfo);
    for (int i = 0; i < f->sizeabslineinfo; i++) {
        putvarint(D, (uint32_t)f->abslineinfo[i].pc);
        putvarint(D, (uint32_t)f->abslineinfo[i].line);
    }
    putvarint(D, (uint32_t)f->sizelocvars);
    for (int i = 0; i < f->sizelocvars; i++) {
        putstring(D, f->locvars[i].name);
        putvarint(D, (uint32_t)f->locvars[i].startpc);
        putvarint(D, (uint32_t)f->locvars[i].endpc);
    }
    /* A prototype loaded stripped has no upvalue names to give. */
    int named = f->sizeupvalues > 0 && f->upvalues[0].name != NULL;
    putvarint(D, named ? (uint32_t)f->sizeupvalues : 0u);
    for (int i = 0; named && i < f->sizeupvalues; i++)
        putstring(D, f->upvalues[i].name);
}

static void putfunction(dumpstate *D, const proto *f, const str *psource)
{
    unsigned flags = f->is_vararg ? DUMP_F_VARARG : 0u;
    int withsource = !D->strip && f->source != NULL && f->source != psource;
    if (do_cstackshort(dump)) { /* nesting deeper than the compiler allows */
        D->status = 1;
        return;
    }
    if (withsource)
        flags |= DUMP_F_SOURCE;
    if (!D->strip)
        flags |= DUMP_F_DEBUG;
    putbyte(D, flags);
    putbyte(D, f->numparams);
    putbyte(D, f->maxstacksize);
    putvarint(D, (uint32_t)f->linedefined);
    putvarint(D, (uint32_t)f->lastlinedefined);
    if (withsource)
        putstring(D, f->source);
    putcode(D, f);
    putconstants(D, f);
    putvarint(D, (uint32_t)f->sizeupvalues);
    for (int i = 0; i < f->sizeupvalues; i++) {
        putbyte(D, f->upvalues[i].instack);
        putbyte(D, f->upvalues[i].idx);
        putbyte(D, f->upvalues[i].kind);
    }
    putvarint(D, (uint32_t)f->sizep);
    for (int i = 0; i < f->sizep && D->status == 0; i++)
        putfunction(D, f->p[i], D->strip ? NULL : f->source);
    if (!D->strip)
        putdebug(D, f);
}

int dump_function(lua_State *L, const proto *f, lua_Writer writer, void *data,
                  int strip)
{
    dumpstate D;
    D.L = L;
    D.writer = writer;
    D.data = data;
    D.strip = strip;
    D.status = 0;
    D.offset = 0;
    D.nstage = 0;
    putheader(&D, f);
    putfunction(&D, f, NULL);
    flush(&D);
    return D.status;
}

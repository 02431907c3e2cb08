/*
 * dis.c — the bytecode disassembler (see dis.h).
 */
#include "lang/dis.h"
#include "port/port.h"

#include "vm/debug.h"
#include "vm/opcodes.h"

#include <string.h>

typedef struct outbuf {
    char *buf;
    size_t cap, n;
} outbuf;

static void out_str(outbuf *o, const char *s)
{
    for (; *s != '\0'; s++) {
        if (o->n + 1 < o->cap)
            o->buf[o->n] = *s;
        o->n++;
    }
    if (o->cap > 0)
        o->buf[o->n + 1 < o->cap ? o->n : o->cap - 1] = '\0';
}

static void out_int(outbuf *o, long v)
{
    char r[24];
    port_snprintf(r, sizeof r, "%ld", v);
    out_str(o, r);
}

size_t dis_proto(const proto *p, char *buf, size_t cap)
{
    outbuf o = {buf, cap, 0};
    if (cap > 0)
        buf[0] = '\0';
    for (int pc = 0; pc < p->sizecode; pc++) {
        instr i = p->code[pc];
        int op = GET_OP(i);
        out_int(&o, pc);
        out_str(&o, " [");
        out_int(&o, dbg_getline(p, pc));
        out_str(&o, "] ");
        if (op >= OP_NUM) {
            out_str(&o, "?\n");
            continue;
        }
        out_str(&o, op_names[op]);
        switch (op_formats[op]) {
        case OPF_ABC:
            out_str(&o, " ");
            out_int(&o, GETARG_A(i));
            out_str(&o, " ");
            out_int(&o, GETARG_B(i));
            out_str(&o, " ");
            out_int(&o, GETARG_C(i));
            if (GETARG_k(i))
                out_str(&o, " k");
            break;
        case OPF_ABx:
            out_str(&o, " ");
            out_int(&o, GETARG_A(i));
            out_str(&o, " ");
            out_int(&o, GETARG_Bx(i));
            break;
        case OPF_AsBx:
            out_str(&o, " ");
            out_int(&o, GETARG_A(i));
            out_str(&o, " ");
            out_int(&o, GETARG_sBx(i));
            break;
        case OPF_Ax:
            out_str(&o, " ");
            out_int(&o, GETARG_Ax(i));
            break;
        default:
            out_str(&o, " -> ");
            out_int(&o, pc + 1 + GETARG_sJ(i));
            break;
        }
        out_str(&o, "\n");
    }
    return o.n;
}

/*
 * opcodes.c — the opcode name and format tables of vm/opcodes.h.
 */
#include "vm/opcodes.h"

#define OP_NAME(name, fmt) #name,
const char *const op_names[OP_NUM] = {OP_LIST(OP_NAME)};
#undef OP_NAME

#define OP_FMT(name, fmt) OPF_##fmt,
const uint8_t op_formats[OP_NUM] = {OP_LIST(OP_FMT)};
#undef OP_FMT

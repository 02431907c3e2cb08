# A string-building module in the style of a JSON encoder: luaL_Buffer
# far past its inline storage, values added from the stack.
MODULE := strbuf
MODULE_SRCS := strbuf.c

# The example C module (see the README's "C modules" section):
# require "ringbuf".
MODULE := ringbuf
MODULE_SRCS := ringbuf.c
# Its tables in flash (see ringbuf.romtab).
MODULE_ROMTAB := ringbuf.romtab

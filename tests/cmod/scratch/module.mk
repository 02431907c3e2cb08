# A module whose working buffers come from malloc, as lua-cjson's do (on
# a board, the arena's blocks: lib/cmalloc.c), and which calls exit().
MODULE := scratch
MODULE_SRCS := scratch.c

# tools/cstack-flags.mk — the flags with which every board object (and
# user C module) is compiled so that tools/cstack.lua can bound the C
# stack: each object leaves beside it its functions' frames and direct
# calls (.ci, -fcallgraph-info=su; .su too) and the types of its
# functions and indirect calls (.tree, the GIMPLE dump).  They change
# nothing in the code.  The Makefile includes this file, and every board
# object depends on it: changing the flags rebuilds them.
CSTACK_FLAGS = -fstack-usage -fcallgraph-info=su \
               -fdump-tree-optimized=$(@:.o=.tree)

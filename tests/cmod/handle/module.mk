# A resource-handle module in the style of a socket or database binding:
# full userdata with __gc, __close, __tostring, __index methods.
MODULE := handle
MODULE_SRCS := handle.c

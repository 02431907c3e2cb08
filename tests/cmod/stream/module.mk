# A module that works on io's file handles and makes its own, as a file
# system or POSIX binding does: luaL_Stream and LUA_FILEHANDLE.
MODULE := stream
MODULE_SRCS := stream.c

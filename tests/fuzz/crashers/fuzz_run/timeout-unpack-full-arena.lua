-- A stack filled a slot at a time in a full arena (string.unpack asks
-- for room item by item): each growth past half the arena was a whole
-- emergency collection and a copy of the stack (hours in the 8 MiB
-- arena of the fuzz targets), now a few (vm/do.c, growsome).  400,000
-- items: a 6.4 MB stack, past what doubling gives in that arena.
local n = select("#", string.unpack(string.rep("b", 400000), string.rep("\0", 400000)))
print(n)

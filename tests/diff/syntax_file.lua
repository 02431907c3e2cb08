-- this file does not compile: the loader reports it
print("never printed")
local x = = 1

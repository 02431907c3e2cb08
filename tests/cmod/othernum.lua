-- tests/cmod/othernum.lua: require must refuse a module built against
-- the other number model's headers, with a message naming both.
local ok, err = pcall(require, "othernum")
assert(not ok, "othernum loaded")
assert(err:find("C module built for another rtlua configuration", 1, true), err)
assert(err:find("rebuild the module against", 1, true), err)
print("refused: " .. err)

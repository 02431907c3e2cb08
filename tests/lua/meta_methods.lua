-- Metatables III: method calls (OP_SELF) and fields through classes: a
-- short and a long name (over 40 bytes: not interned, a long string
-- constant), in the object or its class's base, a function __index
-- midway, and an __index added after a lookup found none.  (Apart from
-- meta_index.lua, which fills microbit's arena.)
local long = "a_method_name_that_is_longer_than_forty_bytes"
assert(#long > 40)
local Base = {short = function(self) return self.k + 1 end}
Base[long] = function(self) return self.k end
Base.__index = Base
local Derived = setmetatable({}, Base)
Derived.__index = Derived
local obj = setmetatable({k = 10}, Derived)
local function callong(o) return o:a_method_name_that_is_longer_than_forty_bytes() end
assert(obj:short() == 11 and callong(obj) == 10 and obj.none == nil)
assert(callong({k = 5, [long] = function(self) return -self.k end}) == -5)
local late = setmetatable({k = 1}, {})
assert(late.short == nil and not pcall(callong, late))
getmetatable(late).__index = Base
assert(late:short() == 2 and callong(late) == 1)
local viafn = setmetatable({k = 3}, {__index = setmetatable({},
  {__index = function(_, key) return Base[key] end})})
assert(viafn:short() == 4 and callong(viafn) == 3 and viafn.none == nil)
print("ok")

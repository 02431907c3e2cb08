-- broken: fails while it loads.
local x = {}
x.y.z = 1
return x

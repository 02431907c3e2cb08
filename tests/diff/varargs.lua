-- varargs and select
local function v(...) return select("#", ...), ... end
print(v()); print(v(nil)); print(v(1, nil, 3)); print(v(nil, nil))
print(select(2, "a", "b", "c")); print(select(-1, "a", "b", "c")); print(select(-3, "a", "b", "c"))
print(select("#")); print(pcall(select, -4, 1, 2, 3)); print(pcall(select, 0))
local function tail(...) return ... end
print(tail(1, 2, 3), tail(4, 5))
print((tail(1, 2, 3)))
print(({tail(1, 2, 3)})[3], #{tail(1, 2, 3), tail(4)})
local t = table.pack(tail(nil, 2, nil))
print(t.n, t[1], t[2], t[3])
print(table.unpack({1, 2, 3}, 2)); print(table.unpack({1, 2, 3}, -1, 1)); print(table.unpack({}, 1, 0))
local function count(...) local n = 0; for _ in ipairs({...}) do n = n + 1 end; return n end
print(count(1, 2, nil, 4))

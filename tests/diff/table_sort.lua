-- table.sort with and without a comparator
local t = {5, 3, 8, 1, 9, 2, 7, 4, 6, 0}
table.sort(t); print(table.concat(t, " "))
table.sort(t, function(a, b) return a > b end); print(table.concat(t, " "))
local w = {"pear", "Apple", "fig", "banana", "apple", ""}
table.sort(w); print(table.concat(w, ","))
local recs = {{n = "b", v = 2}, {n = "a", v = 2}, {n = "c", v = 1}}
table.sort(recs, function(x, y) if x.v ~= y.v then return x.v < y.v end return x.n < y.n end)
for _, r in ipairs(recs) do print(r.n, r.v) end
local big = {}
for i = 1, 200 do big[i] = (i * 7919) % 211 end
table.sort(big)
local okk = true
for i = 2, #big do if big[i - 1] > big[i] then okk = false end end
print(okk, big[1], big[200])
print(pcall(table.sort, {1, "x"}))
print(pcall(table.sort, {3, 2, 1}, 5))
local fl = {3.5, 1, -2, 2^40, -0.5}
table.sort(fl); print(table.concat(fl, " "))

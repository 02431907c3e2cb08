-- table library results
local t = {}
for i = 1, 5 do table.insert(t, i * 10) end
table.insert(t, 1, 5); table.insert(t, 3, 15)
print(table.concat(t, " "), #t)
print(table.remove(t), table.remove(t, 1), table.remove(t, 2), table.concat(t, " "))
print(table.remove({}), table.remove({}, 0), #t)
print(table.concat({1, 2.5, "x"}, ", "), table.concat({}, "x"), table.concat({"a", "b", "c"}, "", 2))
print(pcall(table.concat, {1, {}, 3}))
print(pcall(table.insert, {1}, 5, 2))
print(pcall(table.insert, {1}, 1, 2, 3))
local p = table.pack()
print(p.n, #p)
print(table.concat(table.move({1, 2, 3, 4, 5}, 2, 4, 1), ","))
print(table.concat(table.move({1, 2, 3}, 1, 3, 3), ","))
print(table.concat(table.move({1, 2, 3}, 1, 3, 1, {}), ","))
print(table.unpack({1, 2, nil, 4}, 1, 4))

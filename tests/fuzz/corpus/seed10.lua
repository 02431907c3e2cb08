local a = {} for i = 1, 50 do a[i] = tostring(i) .. ("x"):rep(i % 5) end table.sort(a) return table.concat(a, ",")

return xpcall(function() error("x") end, function(m) return m .. "!" end)

-- string to number coercion in arithmetic, number to string in concat
print("10" + 1, "10" * "2", "3.0" + 1, "0x10" + 0, " 5 " - 0, "1e1" * 1, -"2", "10" // "3", "7" % "2")
print(math.type("10" + 1), math.type("10" + 1.0), math.type("1e1" + 0))
print(10 .. "", 1.5 .. "", 1e100 .. "", -0.0 .. "", 2^63 .. "", math.mininteger .. "")
print(pcall(function() return "abc" + 1 end))
print(pcall(function() return "10" + {} end))
print(pcall(function() return {} + "10" end))
print(pcall(function() return "1" < 2 end))
print("10" == 10, "abc" < "abd")

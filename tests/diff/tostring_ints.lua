-- integers print without a decimal point
print(0, -0, 1, -1, math.maxinteger, math.mininteger, 0x7fffffff, 0xffffffff)
print(0xffffffffffffffff, 0x7fffffffffffffff, 9007199254740993)
print(tostring(123), tostring(-123), 1e3 // 1, 3 // 1, math.tointeger(5.0))
print(string.format("%d %d", math.maxinteger, math.mininteger))

-- mixing integers and floats
print(1 + 1.0, 2 * 0.5, 3 - 1.0, 7 // 2.0, 7 % 2.5, 2 ^ 10, 10 / 2)
print(math.type(1 + 1.0), math.type(2 // 1), math.type(2.0 // 1))
print(3 == 3.0, 1 < 1.5, -1 > -1.5, 2^53 == 2^53 + 1)
print(math.maxinteger + 1.0, math.maxinteger + 0.0 == math.maxinteger)
print(math.mininteger + 0.0, math.mininteger // -1, math.mininteger % -1)
print(1e15, 1e16, 123456789012345678)
print(-7 // 0.0, 7 // -0.0, 0/0 == 0/0)

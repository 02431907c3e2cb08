-- wrap-around of integer arithmetic
local M, m = math.maxinteger, math.mininteger
print(M + 1 == m, m - 1 == M, M * 2, m * -1, -m, M * M, m * m)
print(M // -1, m // -1, m % -1, M % -1, m // 1)
print(9223372036854775807, 9223372036854775808, -9223372036854775808)
print(math.type(9223372036854775807), math.type(9223372036854775808))
print(math.abs(m), math.abs(M), m + m, M + M)
local s = 0
for i = 1, 10 do s = s + M end
print(s)

return 1e308 * 10, -0.0, 0/0, math.huge // 1, 2^63 == math.maxinteger + 1.0

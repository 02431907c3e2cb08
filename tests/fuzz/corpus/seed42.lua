return math.tointeger(3.0), math.fmod(-7, 3), math.ult(1, -1), math.abs(math.mininteger)

local s = "" for i = 1, 200 do s = s .. i end return #s

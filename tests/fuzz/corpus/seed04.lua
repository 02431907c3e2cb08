local s = 0 for i = 1, 100 do if i % 3 == 0 then goto c end s = s + i ::c:: end return s

-- Table work: a sieve, table.sort, insert/remove.  arg[1] = n (default 100000).
local n = tonumber(arg and arg[1]) or N or 100000
local sieve, primes = {}, 0
for i = 2, n do sieve[i] = true end
for i = 2, n do
  if sieve[i] then
    primes = primes + 1
    for j = i * i, n, i do sieve[j] = false end
  end
end
local t, seed = {}, 42
for i = 1, n // 10 do seed = (seed * 1103515245 + 12345) % 2147483648; t[i] = seed % 10007 end
table.sort(t)
local q = {}
for i = 1, n // 20 do table.insert(q, i); if i % 3 == 0 then table.remove(q, 1) end end
local h = {}
for i = 1, n // 10 do h["k" .. (i % 1000)] = i end
print("checksum", primes, t[1], t[#t], #q, h.k999)

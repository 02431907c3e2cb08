-- Integer array loops: fill, prefix sums, reversal, an insertion pass and
-- a small integer matrix product.  arg[1] = length (default 2000).
local n = tonumber(arg and arg[1]) or N or 2000
local a = {}
for i = 1, n do a[i] = (i * 7919) % 1009 end
local sum = 0
for r = 1, 20 do
  for i = 2, n do a[i] = (a[i] + a[i - 1]) % 65521 end
  local i, j = 1, n
  while i < j do a[i], a[j] = a[j], a[i]; i = i + 1; j = j - 1 end
  for k = 1, n, r do sum = (sum + a[k]) % 1000003 end
end
-- insertion sort of a prefix
local m = n // 8
for i = 2, m do
  local v, j = a[i], i - 1
  while j >= 1 and a[j] > v do a[j + 1] = a[j]; j = j - 1 end
  a[j + 1] = v
end
-- 24x24 matrix product
local s = 24
local A, B, C = {}, {}, {}
for i = 1, s do
  local ra, rb = {}, {}
  for j = 1, s do ra[j] = (i + j) % 11; rb[j] = (i * j) % 13 end
  A[i], B[i] = ra, rb
end
for i = 1, s do
  local ci, ai = {}, A[i]
  for j = 1, s do
    local t = 0
    for k = 1, s do t = t + ai[k] * B[k][j] end
    ci[j] = t
  end
  C[i] = ci
end
print("checksum", sum, a[1], a[m], C[s][s], C[1][s])

-- The big list: N nodes {next = h, v = i} kept alive in one linked list,
-- with 4N temporary tables made (and dropped) while it grows, then the
-- list walked.  Issue 14's workload: at N = 50,000 the live list is about
-- as large as the 4 MiB arena of mps2-an385 allows, so it measures the
-- bytes per object and whether the collector keeps the garbage out of the
-- way.  arg[1] = N (default 50000).
local n = tonumber(arg and arg[1]) or N or 50000
local h
for i = 1, n do
  h = {next = h, v = i}
  for j = 1, 4 do
    local t = {j, i}
    if t[1] ~= j then error("lost a temporary") end
  end
end
local count, sum = 0, 0
while h do
  count = count + 1
  sum = sum + h.v
  h = h.next
end
print("checksum", count, sum)

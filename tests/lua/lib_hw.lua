-- hw: the board's hardware (lib/hwlib.c).  The host has a simulated
-- board (port/host/hw_host.c): pins P0..P7 on a register page at
-- 0x40000000 whose outside world a script drives through EXT (+0x10) and
-- EXTEN (+0x14), and two LEDs (+0x100).  On a board the checks that need
-- a device the board lacks are left out; tests/hw/ has each peripheral's
-- own test on the boards whose QEMU model has it.  rtlua only.
assert(type(hw) == "table" and package.loaded.hw == hw)
local info = hw.info()
local board = info.board
for _, k in ipairs{"board", "core", "reset_cause"} do
  assert(type(info[k]) == "string", k)
end
for _, k in ipairs{"clock_hz", "flash", "ram", "pins", "adc_channels", "timers"} do
  assert(math.type(info[k]) == "integer" and info[k] >= 0, k)
end
assert(type(info.uarts) == "table" and type(info.watchdog) == "boolean")
assert(info.reset_cause == "power-on", info.reset_cause)
assert(info.clock_hz > 0 and info.pins > 0)

local function err(pat, f, ...)
  local ok, e = pcall(f, ...)
  assert(not ok, "no error")
  assert(string.find(e, pat, 1, true), e)
end

-- pins: by name or number, bad names, numbers and modes are errors
err("no pin 'nope' on " .. board, hw.pin, "nope")
err("no pin -1 on", hw.pin, -1)
err("no pin " .. 70000, hw.pin, 70000)
err("no pin " .. info.pins + 5000, hw.pin, info.pins + 5000)
err("bad argument #1 to 'hw.pin' (number expected, got table)", hw.pin, {})
err("bad argument #2 to 'hw.pin' (invalid option 'sideways')", hw.pin, 0, "sideways")
local p0 = hw.pin(0)
assert(tostring(p0):find("^hw.pin "), tostring(p0))
err("(hw.pin expected, got table)", p0.on, {})
err("(hw.pin expected, got FILE*)", p0.value, io.stdout)
assert(getmetatable(p0) == getmetatable(hw.pin(1)))

if board == "host" then
  local OUT, DIR, EXT, EXTEN, LEDS = 0x40000000, 0x40000004, 0x40000010, 0x40000014, 0x40000100
  local p = hw.pin("P3", "out")
  assert(p:mode() == "out" and tostring(p) == "hw.pin P3 (out)")
  p:on()
  assert(p:value() == 1 and hw.mem32(OUT) == 8 and hw.mem32(DIR) & 8 == 8)
  p:toggle()
  assert(p:value() == 0 and hw.mem32(OUT) == 0)
  p:value(1)
  assert(hw.mem32(OUT) == 8)
  p:value(false)
  assert(hw.mem32(OUT) == 0)
  p:value(true)
  assert(hw.mem32(OUT) == 8)
  -- an input reads the outside world, else its pull
  local q = hw.pin(5, "in")
  assert(tostring(q) == "hw.pin P5 (in)")
  err("pin P5 is not an output", q.on, q)
  hw.mem32(EXTEN, 1 << 5)
  hw.mem32(EXT, 1 << 5)
  assert(q:value() == 1)
  hw.mem32(EXT, 0)
  assert(q:value() == 0)
  hw.mem32(EXTEN, 0)
  assert(q:mode("pullup") == "pullup" and q:value() == 1)
  assert(q:mode("pulldown") == "pulldown" and q:value() == 0)
  err("(invalid option 'up')", q.mode, q, "up")
  -- the LEDs: outputs only, read back
  local led = hw.pin("led1")
  assert(led:mode() == "out" and hw.pin("led"):mode() == "out")
  led:on()
  assert(hw.mem32(LEDS) == 2 and led:value() == 1)
  err("pin led0 cannot be 'in'", hw.pin, "led0", "in")
  err("pin led1 cannot be 'pullup'", led.mode, led, "pullup")
  -- 8- and 16-bit accesses of the same registers
  hw.mem32(OUT, 0x11223344)
  assert(hw.mem8(OUT) == 0x44 and hw.mem8(OUT + 3) == 0x11)
  assert(hw.mem16(OUT + 2) == 0x1122)
  hw.mem8(OUT + 1, 0xAB)
  assert(hw.mem16(OUT) == 0xAB44)
  hw.mem16(OUT, 0xFFFF)
  assert(hw.mem32(OUT) == 0x1122FFFF)
  hw.mem32(OUT, -1)
  assert(hw.mem32(OUT) & 0xFFFF == 0xFFFF and hw.mem8(OUT) == 0xFF)
  hw.mem32(OUT, 0)
  -- the last word of the page, and the first past it
  assert(hw.mem32(0x40000FFC) == 0)
  err("is not a peripheral register of host", hw.mem32, 0x40001000)
  err("is not a peripheral register of host", hw.mem8, 0x40001000)
  err("is not a peripheral register of host", hw.mem16, 0x3FFFFFFE)
  err("is not aligned to 4 bytes", hw.mem32, 0x40000002)
  err("is not aligned to 2 bytes", hw.mem16, 0x40000001)
  -- no devices
  err("no ADC on host", hw.adc, 0)
  err("no timer on host", hw.timer, 0, 100)
  err("no UART 1 on host", hw.uart, 1)
  err("no watchdog on host", hw.watchdog, 100)
  err("no reset on host", hw.reset)
else
  -- a board's LED (micro:bit: its matrix has none alone) reads back
  -- where QEMU models it
  local has_led, led = pcall(hw.pin, "led", "out")
  if has_led then led:on() end
  if board:find("^mps2") then
    assert(led:value() == 1 and hw.mem32(0x40028000) & 1 == 1)
    led:off()
    assert(hw.mem32(0x40028000) & 1 == 0)
  elseif board == "lm3s6965evb" then
    assert(led:value() == 1 and hw.mem32(0x40025000 + 0x3FC) & 1 == 1)
    led:toggle()
    assert(led:value() == 0)
  end
  -- addresses outside the peripherals are errors, not bus faults
  for _, a in ipairs{0, 0x20000000, 0x3FFFFFFC, 0x60000000, 0xE000E010} do
    err("is not a peripheral register of " .. board, hw.mem32, a)
  end
  err("is not aligned to 4 bytes", hw.mem32, 0x40000001)
  err("address 0x0 is not a peripheral register", hw.mem32, 0)
  if math.maxinteger > 0x7fffffff then
    err("address 0x140000000 is not a peripheral register", hw.mem32,
        0x140000000)
    err("address 0xfffffffffffffffc is not a peripheral register", hw.mem32,
        -4)
  end
  if info.adc_channels == 0 then err("no ADC on " .. board, hw.adc, 0) end
  if info.adc_channels > 0 then
    err("bad argument #1 to 'hw.adc' (no such ADC channel)", hw.adc, info.adc_channels)
    local a = hw.adc(0)
    local v = a:read()
    assert(math.type(v) == "integer" and v >= 0 and v < 1 << a:bits(), v)
  end
  if info.timers > 0 then
    err("bad argument #1 to 'hw.timer' (no such timer)", hw.timer, info.timers, 10)
    -- the fastest: a period of 2,500 cycles (an event's delivery takes
    -- some 1,130 instructions)
    local most = info.clock_hz // 2500
    local range = "bad argument #2 to 'hw.timer' (rate out of range: 1 to " .. most .. " Hz)"
    err(range, hw.timer, 0, 0)
    err(range, hw.timer, 0, most + 1)
    err(range, hw.timer, 0, info.clock_hz)
    hw.timer(0, most, function() end):stop()
  end
  if #info.uarts == 0 then err("no UART 1 on " .. board, hw.uart, 1) end
  err("no UART 0 on " .. board, hw.uart, 0)
  if not info.watchdog then err("no watchdog on " .. board, hw.watchdog, 100) end
end
print("ok")

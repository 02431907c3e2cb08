local function r() return r() end return r()

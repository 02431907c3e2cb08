-- numeric and string literals as printed
print(0x10, 0xff, 0XA, 0x.1, 0x1p4, 0x1P-2, 0xA.8p0, 1e2, 1E-2, .5, 5., 3e0)
print(0xffffffffffffffff, 0x10000000000000000, 1e309, 12345678901234567890)
print("\65\066\x43\u{44}\u{20AC}", "\z
      joined", 'single', "tab\tend", #"\u{10FFFF}", #"\u{7FFFFFFF}")
print([[long
string]], [==[with ]] inside]==], #[[
skipped first newline]])
print("\\", "\"", '\'', "\a\b\f\v" == string.char(7, 8, 12, 11))

local s = [==[ long ]] string ]==] return s, "\u{10FFFF}\z   \x41\065\n"

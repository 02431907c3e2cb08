-- A syntax error near a string token with an embedded zero shows the
-- token's text up to the zero and no closing quote or brackets, as the
-- reference (which formats the token with %s) does (found by
-- tests/difffuzz).
print(load('return string.unpack("<i2""abc\0def")', '=c'))
print(load('return (1 "a\0b")', '=c'))
print(load("return (1 'a\0b')", '=c'))
print(load('return (1 "\0")', '=c'))
print(load('return (1 [[a\0b]])', '=c'))
print(load('return (1 [[\0]])', '=c'))
-- without a zero, the whole token
print(load('return (1 "")', '=c'))
print(load('return (1 "ab")', '=c'))
print(load("return (1 'ab')", '=c'))
print(load('return (1 [[ab]])', '=c'))

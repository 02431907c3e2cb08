local ok, e = pcall(error, {code = 1}) return ok, e.code

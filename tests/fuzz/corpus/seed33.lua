return "unfinished

"""Plain-Python references (oracles) written straight from the rules text, to check kernels against."""

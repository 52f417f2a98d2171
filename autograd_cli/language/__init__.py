"""The .expr language: reading and checking a program, the sandboxed evaluator, the objects
and builtins a program sees, its errors and its resource limits."""

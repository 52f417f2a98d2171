"""agraph's seven compiled files, all optional: without a C compiler agraph makes the same
calls in Python, numpy and ctypes, more slowly (docs/architecture.md).

Everything else about the package is in pyproject.toml.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("engine._backward_walk", ["engine/backward_walk.c"], optional=True),
    Extension("engine.ops._cascade_sum", ["engine/ops/cascade_sum.c"], optional=True),
    # the C library's own functions, never the compiler's builtin versions of them
    Extension("engine._libm", ["engine/libm.c"], optional=True,
              extra_compile_args=["-fno-builtin"], libraries=["m"]),
    Extension("engine.ops._mkl_gemm", ["engine/ops/mkl_gemm.c"], optional=True),
    # float arithmetic exactly as written: no a * b + c fused by the compiler
    Extension("engine.ops._nll_cascade", ["engine/ops/nll_cascade.c"], optional=True,
              extra_compile_args=["-ffp-contract=off"]),
    Extension("engine.ops._sleef_math", ["engine/ops/sleef_math.c"], optional=True,
              extra_compile_args=["-ffp-contract=off"]),
    Extension("engine.ops._vector_sum", ["engine/ops/vector_sum.c"], optional=True),
])

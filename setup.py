"""The one compiled part of agraph, optional: without a C compiler it runs the numpy version.

Everything else about the package is in pyproject.toml.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("engine.ops._cascade_sum", ["engine/ops/cascade_sum.c"],
                             optional=True)])

"""Only here because setuptools takes ``cffi_modules`` from setup(); the rest is in pyproject.toml."""

from setuptools import setup

setup(cffi_modules=["emucore/libretro/_build.py:ffibuilder"])

"""Only what pyproject.toml cannot say: ``cffi_modules``, the wheel's abi3 tag, and the ``.pth`` file that declares
the ``emucore/<Game>`` Gymnasium ids in every interpreter (see ``emucore_gymnasium.py``)."""

import os
import shutil
from distutils.command.install_data import install_data

from setuptools import Distribution, setup

PTH = "emucore-gymnasium.pth"


class InstallWithPth(install_data):
    """Also puts the ``.pth`` beside the packages: a wheel's ``<name>.data/purelib`` goes to site-packages.

    Both ``bdist_wheel`` and ``editable_wheel`` point ``install_data`` at ``<name>.data/data``.
    """

    def run(self) -> None:
        if self.distribution.data_files:
            super().run()
        purelib = os.path.join(os.path.dirname(os.path.normpath(self.install_dir)), "purelib")
        os.makedirs(purelib, exist_ok=True)
        self.outfiles.append(shutil.copy(PTH, os.path.join(purelib, PTH)))


class WithPth(Distribution):
    """Has the ``.pth`` to install even without ``data_files`` (``editable_wheel`` asks ``has_data``)."""

    def has_data_files(self) -> bool:
        return True

    has_data = has_data_files


setup(
    cffi_modules=["emucore/libretro/_build.py:ffibuilder"],
    # cffi builds the extension against the stable ABI (_native.abi3.so): one wheel serves CPython 3.11 and later
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
    cmdclass={"install_data": InstallWithPth},
    distclass=WithPth,
)

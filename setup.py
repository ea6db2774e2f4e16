"""The build step pyproject.toml cannot say: the gettext catalogs (``furball/locale/*/
LC_MESSAGES/furball.po``) compiled to ``.mo`` with Babel, before the package data is
copied, for a wheel and for ``pip install -e`` alike (docs/i18n.md). Everything else is
in pyproject.toml."""
import pathlib

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = pathlib.Path(__file__).resolve().parent / "furball" / "locale"


class build_py_with_catalogs(build_py):
    """``build_py`` that first compiles every ``.po`` to its ``.mo`` beside it (the ``.mo``
    are not tracked by git; package data takes them into the wheel, and an editable
    install reads them where they are)."""

    def run(self):
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as f:
                catalog = read_po(f, domain=po.stem)
            with po.with_suffix(".mo").open("wb") as f:
                write_mo(f, catalog)
        super().run()


setup(cmdclass={"build_py": build_py_with_catalogs})

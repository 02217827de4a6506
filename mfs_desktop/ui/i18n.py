"""The interface's language: Qt's translator, with the catalogue `scripts/translations` builds
from `translations/*.ts` into `ui/translations/*.qm`.

Every visible string goes through `tr` under one empty context: `pyside6-lupdate` files a bare
`tr(...)` there, so a helper module can share it and equal English strings share one
translation. Constants are marked with `QT_TRANSLATE_NOOP("", ...)` and translated where shown.
Placeholders are `str.format` names (`{count:,}`): a translation keeps them, a test checks it.
"""

from __future__ import annotations

from importlib import resources

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from mfs_desktop.errors import EnvironmentFault
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

__all__ = ["LANGUAGES", "QT_TRANSLATE_NOOP", "error_text", "install_language", "resolve_language", "tr"]

# Shown in the language picker in their own script, so a person who cannot read the current
# interface still finds theirs.
LANGUAGES = {"system": QT_TRANSLATE_NOOP("", "Follow the system"), "en": "English", "zh_CN": "简体中文"}
_installed: list[QTranslator] = []  # Qt keeps no reference; a collected translator stops translating


def tr(text: str, disambiguation: str | None = None) -> str:
    return QCoreApplication.translate("", text, disambiguation)


def error_text(error: BaseException) -> str:
    """What a person reads about a failure: the fault's own plain message (translated when its
    sentence is marked in its layer), or, for a bug, its kind and no detail."""
    if isinstance(error, EnvironmentFault):
        return tr(error.template).format(**error.values) if error.values else tr(error.message)
    return tr("Internal error ({kind}); this is a bug.").format(kind=type(error).__name__)


def resolve_language(choice: str, system: QLocale | None = None) -> str:
    """The catalogue for a choice: "system" reads the desktop's preferred languages in order."""
    if choice in LANGUAGES and choice != "system":
        return choice
    for name in (system or QLocale.system()).uiLanguages():
        code = name.replace("-", "_")
        if code.startswith("zh"):  # Traditional readers get Simplified rather than English
            return "zh_CN"
        if code.startswith("en"):
            return "en"
    return "en"


def install_language(app: QCoreApplication, choice: str) -> str:
    """Load the chosen language's catalogues (ours and Qt's own, for standard buttons and
    dialogs); returns the language in use. English is the source text and needs none."""
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    language = resolve_language(choice)
    if language == "en":
        return language
    ours = QTranslator(app)
    with resources.as_file(resources.files("mfs_desktop.ui") / "translations" / f"mfs_{language}.qm") as path:
        if not ours.load(str(path)):
            return "en"
    qt_own = QTranslator(app)
    if qt_own.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        _installed.append(qt_own)
    _installed.append(ours)
    for translator in _installed:
        app.installTranslator(translator)
    return language

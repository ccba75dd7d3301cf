"""Interface language: Chinese source strings, English from ``resources/i18n/xqarbiter_en.qm``.

Every visible string is written in Chinese and passed through ``QCoreApplication.translate`` (or
``self.tr`` in a QObject, whose context is the class name). The English translations live in the Qt
Linguist file ``resources/i18n/xqarbiter_en.ts``; ``pyside6-lrelease`` (shipped with
PySide6-Essentials) compiles it to ``.qm`` — ``make i18n`` does that at install time. If the ``.qm``
is missing or older than the ``.ts`` (a fresh checkout), :func:`compiled_translation` compiles it on
the spot into the data folder, so a checkout without the build step still speaks English.

Qt's own strings (the buttons of message boxes and dialogs — OK, Cancel, Yes, No —, the context
menu of a line edit, the date picker) come from Qt's translations, ``qtbase_zh_CN.qm`` in the
``translations`` folder of PySide6-Essentials (PyInstaller's Qt hook bundles it with QtCore):
installed whenever the window speaks Chinese, so no English button is left in a Chinese window.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

from app.paths import data_dir, resources_dir

LANGUAGES = ("zh", "en")
_installed: list[QTranslator] = []  # the program's own translation (English)
_qt_installed: list[QTranslator] = []  # Qt's translation of its own strings (Chinese)
QT_CHINESE = "qtbase_zh_CN"


def app_settings() -> QSettings:
    """The program's preferences (recent files, language), in an INI file per user."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "XiangqiArbiter", "xqarbiter")


def ts_path(language: str) -> Path:
    return resources_dir() / "i18n" / f"xqarbiter_{language}.ts"


def _lrelease() -> list[str] | None:
    exe = shutil.which("pyside6-lrelease") or str(Path(sys.executable).with_name("pyside6-lrelease"))
    if Path(exe).exists():
        return [exe]
    try:
        import PySide6

        binary = Path(PySide6.__file__).parent / "Qt" / "libexec" / "lrelease"
        if binary.exists():
            return [str(binary)]
    except ImportError:  # pragma: no cover - PySide6 is a dependency
        return None
    return None


def compile_ts(ts: Path, qm: Path) -> None:
    """Compile a Qt Linguist ``.ts`` file to ``.qm`` with ``pyside6-lrelease``."""
    tool = _lrelease()
    if tool is None:
        raise FileNotFoundError("pyside6-lrelease not found")
    qm.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([*tool, "-silent", str(ts), "-qm", str(qm)], check=True, capture_output=True)


def compiled_translation(language: str) -> Path | None:
    """The ``.qm`` file for a language: the shipped one, or one compiled now from the ``.ts``."""
    ts = ts_path(language)
    shipped = ts.with_suffix(".qm")
    frozen = getattr(sys, "frozen", False)  # a built program: its .qm was compiled by build.spec
    if shipped.exists() and (frozen or not ts.exists() or shipped.stat().st_mtime >= ts.stat().st_mtime):
        return shipped
    if not ts.exists():
        return None
    cached = data_dir() / "i18n" / shipped.name
    if not cached.exists() or cached.stat().st_mtime < ts.stat().st_mtime:
        compile_ts(ts, cached)
    return cached


def preferred_language() -> str:
    """The saved choice; otherwise the system's: Chinese where the system is Chinese, else English.

    ``XQARBITER_LANG`` (``zh`` / ``en``) overrides both, for scripts and tests.
    """
    forced = os.environ.get("XQARBITER_LANG", "")
    if forced in LANGUAGES:
        return forced
    saved = str(app_settings().value("language", "") or "")
    if saved in LANGUAGES:
        return saved
    return "zh" if QLocale.system().language() == QLocale.Language.Chinese else "en"


def qt_translations_dirs() -> list[Path]:
    """Where Qt's own ``.qm`` files may be: Qt's configured folder, then PySide6's (a frozen build)."""
    dirs = [Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))]
    try:
        import PySide6

        dirs.append(Path(PySide6.__file__).parent / "Qt" / "translations")
    except ImportError:  # pragma: no cover - PySide6 is a dependency
        pass
    return dirs


def install_qt_chinese(app: QCoreApplication) -> bool:
    """Qt's own strings in Chinese (qtbase_zh_CN); False when the file is not found."""
    if _qt_installed:
        return True
    translator = QTranslator(app)
    for folder in qt_translations_dirs():
        if translator.load(QT_CHINESE, str(folder)):
            app.installTranslator(translator)
            _qt_installed.append(translator)
            return True
    return False


def qt_chinese_installed() -> bool:
    return bool(_qt_installed)


def install_language(language: str) -> None:
    """Install the translators for ``language``: Chinese is the source language of the program and
    needs Qt's own Chinese; English needs the program's English and Qt's English (no file)."""
    app = QCoreApplication.instance()
    assert app is not None
    while _installed:
        app.removeTranslator(_installed.pop())
    while _qt_installed:
        app.removeTranslator(_qt_installed.pop())
    if language == "zh":
        install_qt_chinese(app)
        return
    qm = compiled_translation(language)
    if qm is None:
        return
    translator = QTranslator(app)
    if translator.load(str(qm)):
        app.installTranslator(translator)
        _installed.append(translator)


def current_language() -> str:
    return "en" if _installed else "zh"


def tr(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


def translate_noop(context: str, text: str) -> str:
    """Mark a string for the translation file without translating it here (Qt's QT_TRANSLATE_NOOP)."""
    return text

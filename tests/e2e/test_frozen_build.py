"""The frozen program: build it with PyInstaller (build.spec) and run its headless ``--self-test``.

Slow (about 1.5–3 minutes on 2 cores). Skipped only when XQ_SKIP_FROZEN=1; without PyInstaller
installed (``pip install -e '.[dist]'``) it fails, on purpose, rather than skipping silently.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.frozen,
    pytest.mark.serial,
    pytest.mark.skipif(os.environ.get("XQ_SKIP_FROZEN") == "1", reason="XQ_SKIP_FROZEN=1"),
]


def test_frozen_build_passes_its_self_test(tmp_path: Path) -> None:
    pyinstaller = shutil.which("pyinstaller", path=str(Path(sys.executable).parent)) or shutil.which(
        "pyinstaller"
    )
    assert pyinstaller, "PyInstaller is not installed: pip install -e '.[dist]' (or set XQ_SKIP_FROZEN=1)"
    subprocess.run(
        [
            pyinstaller,
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(tmp_path / "dist"),
            "--workpath",
            str(tmp_path / "build"),
            str(ROOT / "build.spec"),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=900,
    )
    exe = tmp_path / "dist" / "xqarbiter" / ("xqarbiter.exe" if sys.platform == "win32" else "xqarbiter")
    assert exe.exists()
    assert (tmp_path / "dist" / "xqarbiter" / "_internal" / "app" / "db" / "migrations" / "env.py").exists()
    # Qt's own Chinese (OK/Cancel/Yes/No in message boxes) travels with the build
    assert list((tmp_path / "dist" / "xqarbiter").rglob("qtbase_zh_CN.qm"))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([str(exe), "--self-test"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "self-test passed" in done.stdout
    assert "ok   results" in done.stdout and "ok   trf" in done.stdout

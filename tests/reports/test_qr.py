"""The QR codes: reportlab's encoder, loaded without reportlab's barcode widgets (app/reports/qr.py)."""

from __future__ import annotations

import subprocess
import sys

URLS = ("http://192.168.1.10:8080/", "http://10.0.0.2:8765/g/1/", "http://[fe80::1]:80/d/" + "x" * 40)

#: in a fresh process: every code, then whether the barcode package got loaded, then the same codes
#: from reportlab's own encoder imported the usual way (the package, its widgets and all)
_FRESH = f"""
import sys
from app.reports.qr import encoder, qr_matrix, qr_text
own = [qr_matrix(u) for u in {URLS!r}]
text = qr_text({URLS[0]!r})
print(sorted(m for m in sys.modules if m.startswith(("reportlab.graphics.barcode", "reportlab.pdfgen", "PIL"))))
from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel
def theirs(u):
    code = QRCode(None, QRErrorCorrectLevel.M)
    code.addData(u)
    code.make()
    return [[bool(c) for c in row] for row in code.modules]
print(own == [theirs(u) for u in {URLS!r}], text == qr_text({URLS[0]!r}), encoder() is not sys.modules[
    "reportlab.graphics.barcode.qrencoder"])
"""


def test_a_qr_code_loads_no_barcode_widget_and_is_reportlabs_own() -> None:
    run = subprocess.run([sys.executable, "-c", _FRESH], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["[]", "True True True"]


def test_once_the_barcode_package_is_loaded_its_encoder_is_used() -> None:
    import reportlab.graphics.barcode.qrencoder as theirs

    from app.reports import qr

    qr.encoder.cache_clear()
    try:
        assert qr.encoder() is theirs  # one copy of the encoder in a process that prints PDFs
    finally:
        qr.encoder.cache_clear()

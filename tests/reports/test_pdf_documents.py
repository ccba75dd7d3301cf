def test_a_crosstable_renders_as_the_first_pdf_of_a_fresh_process(tmp_path) -> None:
    """Regression: a Paragraph before any text measure needed the font family mapping first."""
    import subprocess
    import sys

    code = (
        "from datetime import datetime; from app.reports.sample import SampleEvent; "
        "from app.reports.pdf import render_document; import io; "
        "ev = SampleEvent.generate(players=20, rounds=3); buf = io.BytesIO(); "
        "render_document('crosstable', ev.crosstable(), buf, printed_at=datetime(2024, 7, 28)); "
        "print(len(buf.getvalue()) > 1000)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "True"

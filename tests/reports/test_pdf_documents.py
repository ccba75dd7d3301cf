def test_a_crosstable_renders_as_the_first_pdf_of_a_fresh_process(tmp_path) -> None:
    """Regression: a Paragraph before any text measure needed the font family mapping first."""
    import subprocess
    import sys

    code = (
        "from datetime import datetime; from pathlib import Path; import io; "
        "from app.services.demo import create_demo; from app.services.simulation import play_random_results; "
        "from app.services.rounds import pair_next_round; from app.services.exports import crosstable; "
        "from app.reports.pdf import render_document; "
        f"db = create_demo(Path({str(tmp_path / 'demo.xqt')!r}), players=20); "
        "pair_next_round(db, '公开组', seed=1); play_random_results(db, '公开组', 1, seed=1); "
        "buf = io.BytesIO(); "
        "render_document('crosstable', crosstable(db, '公开组'), buf, printed_at=datetime(2024, 7, 28)); "
        "print(len(buf.getvalue()) > 1000)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "True"

def test_a_crosstable_renders_as_the_first_pdf_of_a_fresh_process(tmp_path) -> None:
    """Regression: a Paragraph before any text measure needed the font family mapping first. The
    event is made here; the fresh process opens it and renders its first PDF."""
    import subprocess
    import sys

    from app.services.demo import create_demo
    from app.services.rounds import pair_next_round
    from app.services.simulation import play_random_results

    db = create_demo(tmp_path / "demo.xqt", players=20)
    pair_next_round(db, "公开组", seed=1)
    play_random_results(db, "公开组", 1, seed=1)
    db.close()
    code = (
        "from datetime import datetime; import io; "
        "from app.services.tournaments import open_tournament; from app.services.exports import crosstable; "
        "from app.reports.pdf import render_document; "
        f"db = open_tournament({str(tmp_path / 'demo.xqt')!r}); "
        "buf = io.BytesIO(); "
        "render_document('crosstable', crosstable(db, '公开组'), buf, printed_at=datetime(2024, 7, 28)); "
        "print(len(buf.getvalue()) > 1000)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "True"

"""The analysis options of the everyday commands: `simulate --report DIR` and `replay --image`."""
from cli_tool import assert_one_error_line, simcore

PNG = b"\x89PNG\r\n\x1a\n"


def test_simulate_report_writes_the_report_of_the_run(tmp_path):
    report = tmp_path / "rep"
    p = simcore("simulate", "strasbourg", "-p", 3, "-n", 300, "--seed", 7, "--report", report, "--quiet", "--json")
    assert p.returncode == 0, p.stderr
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "(300 games, seed 7)" in text
    assert " · lineup random ×3 (300 games, seed 7)" in text      # the section's title names the seats' policies
    assert (report / "results.parquet").exists()                  # no --out: the rows go beside the report
    assert (report / "strasbourg-3p-win_share.png").read_bytes()[:8] == PNG


def test_simulate_report_never_replaces_a_report_silently(tmp_path):
    report = tmp_path / "rep"
    report.mkdir()
    (report / "report.md").write_text("# an older report\n")
    p = simcore("simulate", "strasbourg", "-p", 3, "-n", 30, "-o", tmp_path / "rows.parquet", "--report", report,
                "--quiet")
    assert_one_error_line(p, f"report folder {report} already holds a report (report.md): give --force to replace it")
    assert (report / "report.md").read_text() == "# an older report\n"


def test_replay_image_draws_the_final_state(tmp_path):
    image = tmp_path / "pr.png"
    p = simcore("replay", "principato", "-p", 2, "--seed", 5, "--image", image)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == "Principato, 2 players, seed 5, game 0, data principato-reconstructed-1"
    assert image.read_bytes()[:8] == PNG
    assert_one_error_line(simcore("replay", "principato", "-p", 2, "--image", tmp_path / "no" / "x.png"),
                          "cannot write picture")
    assert_one_error_line(simcore("replay", "principato", "-p", 2, "--image", tmp_path / "x.jpg"),
                          "must end in .png")

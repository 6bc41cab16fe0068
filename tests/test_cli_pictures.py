"""`simcore replay GAME --image FILE.png --image-every N`: pictures of one game in progress every N
turns or rounds beside the final one, and the mistakes in asking for them."""
from cli_tool import assert_one_error_line, simcore
from picture_tool import png_size


def test_image_every_draws_the_game_every_n_turns(tmp_path):
    # Carcassonne at its usual 4 players places 71 tiles: after turns 20, 40 and 60, then the end
    image = tmp_path / "final.png"
    p = simcore("replay", "carcassonne", "--seed", 1, "--image", image, "--image-every", 20)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0].startswith("Carcassonne, 4 players, seed 1, game 0")
    steps = [tmp_path / f"final-turn{n:03d}.png" for n in (20, 40, 60)]
    assert sorted(tmp_path.iterdir()) == sorted([*steps, image])
    for path in [*steps, image]:
        png_size(path)                                  # a PNG
    assert p.stderr.splitlines() == [*(f"drew the game in progress to {path}" for path in steps),
                                     f"drew the final state to {image}"]


def test_image_every_counts_rounds_in_a_game_of_rounds(tmp_path):
    # Strasbourg has 5 rounds: after rounds 2 and 4, then the end
    image = tmp_path / "sb.png"
    p = simcore("replay", "strasbourg", "-p", 3, "--seed", 2, "--image", image, "--image-every", 2)
    assert p.returncode == 0, p.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["sb-round002.png", "sb-round004.png", "sb.png"]


def test_image_every_mistakes_are_one_line_errors(tmp_path):
    image = tmp_path / "x.png"
    p = simcore("replay", "carcassonne", "--seed", 1, "--image-every", 20)
    assert_one_error_line(p, "--image-every needs --image")
    assert p.stdout == ""                               # found before the replay is printed
    for bad in (0, -5):
        p = simcore("replay", "carcassonne", "--seed", 1, "--image", image, "--image-every", bad)
        assert_one_error_line(p, f"--image-every must be at least 1, got {bad}")
        assert p.stdout == ""
    assert_one_error_line(simcore("replay", "carcassonne", "--image", image, "--image-every", "many"),
                          "'many' is not a valid integer")
    assert list(tmp_path.iterdir()) == []

"""The seats' names, by seat index, as every game's replay text and pictures write them (their
colours, in the same order, are simcore/drawing.py's SEAT_COLOURS)."""

SEAT_NAMES = ("Red", "Blue", "Green", "Yellow", "Black")

"""The rules engine: positions, plays, cube, match and their formats. No I/O."""

"""The board controller and the board emulator."""

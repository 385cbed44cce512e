"""Drivers for the board sensors, electronic dice, player buttons and the LED cube display."""

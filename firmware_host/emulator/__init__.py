"""A whole table with no hardware: the board's physics and sensors (`board`), its firmware's side
of the wire protocol (`firmware`), a pseudo-terminal for it (`pty`), the pyserial URL handler for
``emulator://`` (`protocol_emulator`, registered by importing `board`), the simulated people who
move its checkers and press its buttons (`people`), and the emulated table that runs them all
with the real controller (`table`, the embedded default).
"""

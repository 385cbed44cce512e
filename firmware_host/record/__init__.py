"""What a table keeps for a referee: the journal (one JSON line per event, hash-chained), its
signing key, the recorder that writes the match's files at its end (transcript, sheet, report),
the dice statistics and GNU Backgammon's analysed report (game/RECORD.md says what each line holds).
"""

"""Board pictures for players and referees: boards, plays, discrepancies and match sheets."""

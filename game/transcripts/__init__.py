"""Match transcripts in the Jellyfish `.mat` layout, as real servers and programs write them.

`replay_transcript(text)` reads a transcript in any dialect seen (game/TRANSCRIPTS.md) and replays
it through the rules: `layout` finds the cells, `reading` turns them into events, `dialect` says
how the file is written, the project's one resolver (`game.play_reader`) reads every play,
`lookahead` settles what the written play alone leaves open, and `replay` drives it all.
Writing a `.mat` is `game.mat.export_mat`. GNU Backgammon's own `.sgf` is read into the same events
and replayed by the same driver, and written, by `sgf`.
"""

from game.transcripts.dialect import Dialect
from game.transcripts.reading import Transcript, read_transcript
from game.transcripts.replay import TranscriptReplay, replay_sgf, replay_transcript

__all__ = ["Dialect", "Transcript", "TranscriptReplay", "read_transcript", "replay_sgf", "replay_transcript"]

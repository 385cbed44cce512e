"""A tournament room: every table on one MQTT broker, a director's live web page.

Data flows one way, as at the table: a table's journal lines and its state go out to the
broker (`publisher`, attached to a controller by `table_link`); the director (`director`,
`store`) subscribes to every table, keeps its own copy of each match, and serves the pages
(`web`, `views`, `auth`). Two messages flow back: a referee's ruling, and at a chouette table
(`chouette_room`) a member's cube decision made on a phone. The topics
and every payload are in `topics` and `messages`, documented byte by byte in
hardware_docs/room.md.

Everything here needs the `room` extra (paho-mqtt, Starlette, uvicorn); the table itself
does not: with no broker configured nothing of this package is imported.
"""

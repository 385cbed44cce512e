import sys
from pathlib import Path

# The test helpers (builders, strategies, reference rules) import as plain modules.
sys.path.insert(0, str(Path(__file__).parent))

# Fixtures of the room's tests (a real Mosquitto, a proxy to cut connections, tables, a director).
pytest_plugins = ["room_fixtures"]

import sys
from pathlib import Path

# The test helpers (builders, strategies, reference rules) import as plain modules.
sys.path.insert(0, str(Path(__file__).parent))

"""The table's own signing key: Ed25519, made on the first run, readable by its owner only.

The journal names the key's public half in its first line and signs its chain's head at every
game's end and at the match's end (`game/integrity.py` checks them). The key lives outside the
record directory, so whoever copies or edits a record does not have it: by default in
`$XDG_CONFIG_HOME/smartgammon/table-ed25519.pem` (`~/.config/...`), or where the environment
variable `SMARTGAMMON_TABLE_KEY` or the configuration's `[record] key` says.
"""

from __future__ import annotations

import base64
import os
import stat
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from firmware_host.errors import KeyFileError
from firmware_host.folders import make_directory
from game.integrity import key_text, signed_message

KEY_ENV = "SMARTGAMMON_TABLE_KEY"


def default_key_path() -> Path:
    """Where the table's key is kept unless the configuration says otherwise."""
    if os.environ.get(KEY_ENV):
        return Path(os.environ[KEY_ENV])
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return config / "smartgammon" / "table-ed25519.pem"


class TableKey:
    """The private key of one table; `public` is its public key as records name it."""

    def __init__(self, private: Ed25519PrivateKey, path: Path | None = None) -> None:
        self._private = private
        self.path = path
        raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.public = key_text(raw)

    @classmethod
    def load_or_create(cls, path: Path | None = None) -> TableKey:
        """The key at `path` (default: `default_key_path()`), made there with mode 0600 on the first
        run. Raises `KeyFileError` for a key file others may read or that is not a key."""
        path = path or default_key_path()
        if not path.exists():
            return cls._create(path)
        mode = path.stat().st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise KeyFileError(f"the table key {path} may be read by others (mode {stat.filemode(mode)}): "
                               f"chmod 600 {path}")
        try:
            private = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (ValueError, TypeError, OSError) as exc:
            raise KeyFileError(f"{path} is not a table key: {exc}") from None
        if not isinstance(private, Ed25519PrivateKey):
            raise KeyFileError(f"{path} is not an Ed25519 key")
        return cls(private, path)

    @classmethod
    def _create(cls, path: Path) -> TableKey:
        make_directory(path.parent, "key's directory", mode=0o700)
        private = Ed25519PrivateKey.generate()
        pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process of this table made it first
            return cls.load_or_create(path)
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
        key = cls(private, path)
        path.with_suffix(".pub").write_text(key.public + "\n", encoding="ascii")
        return key

    def sign(self, lines: int, head: str, t: float) -> str:
        """The signature (base64) of a journal's first `lines` lines, whose last hashes to `head`,
        by a signature line stamped `t`."""
        return self.sign_bytes(signed_message(lines, head, t))

    def sign_bytes(self, message: bytes) -> str:
        """The signature (base64) of `message`, which the caller has prefixed with its own context (the
        director signs its rulings and decisions with a key of this kind: firmware_host/room/messages.py)."""
        return base64.b64encode(self._private.sign(message)).decode("ascii")

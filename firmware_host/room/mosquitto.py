"""A Mosquitto broker of our own on 127.0.0.1: for `room-demo` and for the tests.

It runs Debian's `mosquitto` with a configuration written into a directory of its own
(persistence, log, and optionally an ACL and a password file), on a free port. `secured_room`
starts one as hardware_docs/room.md documents a venue's: the room's ACL, a password file of the
users given, no anonymous client, client ids bound to user names, a packet size limit.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Self

from firmware_host.errors import BrokerUnavailable

ROOM_ACL = """\
# Mosquitto acl_file for the room: each table's user name is its table id.
user director
topic readwrite smartgammon/v1/#

# Every user (%u, its user name): its own table's topics only.
pattern write smartgammon/v1/+/table/%u/event
pattern write smartgammon/v1/+/table/%u/state
pattern write smartgammon/v1/+/table/%u/status
pattern write smartgammon/v1/+/table/%u/reply
pattern write smartgammon/v1/+/table/%u/decided
pattern read smartgammon/v1/+/table/%u/ack
pattern read smartgammon/v1/+/table/%u/ruling
pattern read smartgammon/v1/+/table/%u/decision
pattern read smartgammon/v1/+/director/status
"""
"""The room's ACL (hardware_docs/room.md shows exactly this; a test checks it)."""
ROOM_SETTINGS = ("use_username_as_clientid true", "max_packet_size 300000")
"""What a room's broker sets beside its listener, files and ACL (hardware_docs/room.md's room.conf): a
login's client id is its user name, so no login can take over another client's connection; a packet
over 300,000 bytes (the room's largest payload is 262,144) is refused and its client disconnected."""
INSTALL_HINT = ("Mosquitto is not installed: sudo apt-get install mosquitto (Debian, Ubuntu, Raspberry Pi OS), "
                "or give --broker mqtt://HOST of a running broker")


def find_mosquitto() -> str | None:
    """The mosquitto executable, if installed (Debian puts it in /usr/sbin, often not on PATH)."""
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.access(p, os.X_OK)), None)


def write_password_file(path: Path, users: dict[str, str]) -> None:
    """Mosquitto's password file for `users` (name: password), hashed by `mosquitto_passwd`; readable by
    its owner only. BrokerUnavailable without mosquitto_passwd (Debian's mosquitto package has it)."""
    tool = shutil.which("mosquitto_passwd") or next(
        (p for p in ("/usr/bin/mosquitto_passwd", "/usr/sbin/mosquitto_passwd") if os.access(p, os.X_OK)), None)
    if tool is None:
        raise BrokerUnavailable(INSTALL_HINT)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as plain:
        plain.writelines(f"{name}:{password}\n" for name, password in users.items())
    done = subprocess.run([tool, "-U", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        raise BrokerUnavailable(f"mosquitto_passwd -U {path} failed: {done.stderr.strip()}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free when asked (another process may take it before it is used)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mosquitto:
    """One broker process; `start`, `stop` (orderly), `kill` (as a power cut would), `restart`."""

    def __init__(self, directory: str | os.PathLike[str], port: int | None = None, *,
                 acl_file: str | os.PathLike[str] | None = None,
                 password_file: str | os.PathLike[str] | None = None, executable: str | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        found = executable or find_mosquitto()
        if found is None:
            raise BrokerUnavailable(INSTALL_HINT)
        self.executable = found
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.acl_file = acl_file
        self.password_file = password_file
        self.extra = extra
        """More configuration lines (a bridge, say), appended as they are."""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The broker's address for `BrokerConfig.from_url`."""
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        """The broker's log file: errors, warnings, notices, connections (the place to look when it fails)."""
        return self.directory / "mosquitto.log"

    def _write_config(self) -> Path:
        lines = [f"listener {self.port} 127.0.0.1",
                 f"allow_anonymous {'false' if self.password_file else 'true'}",
                 "persistence true", f"persistence_location {self.directory}/", "autosave_interval 1",
                 "max_queued_messages 100000", "max_inflight_messages 1000", f"log_dest file {self.log}",
                 "log_type error",
                 "log_type warning", "log_type notice", "log_type information"]
        if os.geteuid() == 0:  # mosquitto run as root drops to user "mosquitto", who cannot write here
            lines.append(f"user {getpass.getuser()}")
        if self.acl_file:
            lines.append(f"acl_file {self.acl_file}")
        if self.password_file:
            lines.append(f"password_file {self.password_file}")
        path = self.directory / "mosquitto.conf"
        path.write_text("\n".join([*lines, *self.extra]) + "\n", encoding="utf-8")
        return path

    def start(self, timeout: float = 10.0) -> None:
        """Start the broker and wait until it accepts connections."""
        config = self._write_config()
        self.process = subprocess.Popen([self.executable, "-c", str(config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                error = (self.process.stderr.read() if self.process.stderr else b"").decode(errors="replace")
                raise BrokerUnavailable(f"mosquitto exited with {self.process.returncode}: {error.strip()} "
                                        f"(log: {self.log})")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BrokerUnavailable(f"mosquitto did not listen on port {self.port} within {timeout} s (log: {self.log})")

    def stop(self) -> None:
        """Stop the broker in order (SIGTERM: it saves what it holds first); nothing if it is not running."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """Kill the broker at once: what it had not saved is lost, connections drop."""
        self._end(signal.SIGKILL)

    def restart(self) -> None:
        """Stop in order, then start again on the same port and directory: what it saved comes back."""
        self.stop()
        self.start()

    def _end(self, how: signal.Signals) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(how)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr:
            process.stderr.close()

    @classmethod
    def secured_room(cls, directory: str | os.PathLike[str], users: dict[str, str],
                     port: int | None = None) -> Mosquitto:
        """A broker as a venue runs it (not started): `ROOM_ACL`, a password file of `users` (name: password),
        `ROOM_SETTINGS`; no anonymous client."""
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        acl = folder / "room.acl"
        acl.write_text(ROOM_ACL, encoding="utf-8")
        passwords = folder / "passwd"
        write_password_file(passwords, users)
        return cls(folder / "broker", port, acl_file=acl, password_file=passwords, extra=ROOM_SETTINGS)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

"""The room's fixtures (a real Mosquitto, one per test session with a venue per test, a proxy that cuts
a link, the director with emulated tables, a real Chromium) load for the room's tests only: no other
test needs paho, Starlette or a broker."""

from room_fixtures import browser, mosquitto, proxy, room, shared_mosquitto, venue

__all__ = ["browser", "mosquitto", "proxy", "room", "shared_mosquitto", "venue"]

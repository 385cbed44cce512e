"""The room's fixtures (a real Mosquitto, a proxy that cuts a link, the director with emulated tables,
a real Chromium) load for the room's tests only: no other test needs paho, Starlette or a broker."""

from room_fixtures import browser, mosquitto, proxy, room

__all__ = ["browser", "mosquitto", "proxy", "room"]

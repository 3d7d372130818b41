"""A port the bot serves on (metrics, the live table), listened on at start-up so a clash is told at once."""

from __future__ import annotations

import errno
import socket


class PortError(Exception):
    """A port setting can not be listened on; the message says what to do."""


def listen(
    port: int,
    setting: str,
    clash: str,
    *,
    error: type[PortError] = PortError,
    host: str = "0.0.0.0",
    backlog: int = 64,
) -> socket.socket:
    """A non-blocking socket listening on ``port``, else ``error`` naming ``setting``.

    ``clash`` is what to do when another program has the port already (said after the cause).
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise error(
                f"{setting}={port} is already in use by another program (another bot process?). {clash}"
            ) from None
        raise error(f"Can not listen on {setting}={port}: {e.strerror or e}.") from None
    sock.setblocking(False)
    return sock

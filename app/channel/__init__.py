"""The owner's channel: the command line hands its work to the process that has the file open.

While the window or ``xqarbiter serve`` has a tournament file open it is the file's *owner*: it holds
the lock, and it is the only process that opens the file at all. A command run beside it (``xqarbiter
result``, ``pairings``, ``print`` …) does not open the file itself: it sends its command line to the
owner over a local channel; the owner runs it with the same services, in its own writer thread for a
change (one writer always, written to the audit log), and sends back what the command printed and its
exit code. The hall's pages follow at once. See docs/file-safety.md.

- :mod:`app.channel.wire` — where an owner can be found (a private folder of the user), the framing,
  the handshake (each side proves it knows a per-run secret without sending it), the limits.
- :mod:`app.channel.server` — :class:`~app.channel.server.OwnerChannel`, run by the owner.
- :mod:`app.channel.client` — :func:`~app.channel.client.ask_owner`, used by the command line.

Transport: a Unix domain socket in a folder only the user can open (``0700``), the socket ``0600``,
the peer's user id checked (Linux, macOS); on Windows — or where a socket path would be too long —
a TCP socket on 127.0.0.1 whose secret is in a file of the user's private folder. Either way the
handshake proves knowledge of the secret, so a process of another user, or one that found the port,
gets nothing. The package uses the standard library only (the command line reaches the owner without
loading SQLAlchemy).
"""

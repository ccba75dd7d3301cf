"""The hall network (赛场网络): the tournament's public pages served to phones from the arbiter's laptop.

``app.web`` sits beside ``app.ui``: it renders pages from the same public read models as
``app.reports`` (built by ``app.services.exports``) and hands deputies' entries to the services. It
imports neither Qt nor SQL. The window (or ``xqarbiter serve``) owns the tournament file; the server
is its guest: it reads through the services and asks the file's owner to run the few writes it has
(a deputy's result waiting for confirmation).

- :mod:`app.reports.html` (not here) — the HTML of each page: the templates shared with the static
  folder of ``xqarbiter html`` (Chinese, mobile-first, no external assets).
- :mod:`app.web.site` — which pages exist, built from the services and cached per version of the file.
- :mod:`app.web.app` — the ASGI application (Starlette): routes, refresh on change, deputies' entry,
  the security rules.
- :mod:`app.web.server` — uvicorn in a background thread, started and stopped by the window or the CLI.
- :mod:`app.web.limits` — what one client may hold: timeouts, connections per address and in all, a quiet log.
- :mod:`app.web.cache` — each page's answer kept per version of the file (and sent by the protocol itself).
- :mod:`app.web.fanout` — the refresh streams, told of each new version at a paced rate.
"""

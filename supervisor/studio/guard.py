"""Who may talk to the studio: a request must carry the session's token as the first part of
its path, name the studio in its Host header, and come from no other page's Origin.

- The token is random per start and printed only to the person who started the studio: no
  other page or local user can guess the address.
- Host defeats DNS rebinding: a page on evil.example whose name is made to resolve to
  127.0.0.1 sends Host: evil.example, and is refused, token or not.
- Origin defeats another page posting to the studio from a person's browser (a stop, a
  render): a browser sends its page's Origin with every such request, and only the studio's
  own is accepted. A request without an Origin (the page's own GETs, a command-line client)
  still needs the token.

`refusal` is pure (a path and headers in, a status and a sentence out); `Guarded` applies it
to every HTTP request before the app sees it, and adds to every answer the headers that keep
the page from being framed by another (a Cancel button clicked through a hidden frame), its
address from leaking in a Referer, and any script but its own from running.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from starlette.responses import PlainTextResponse

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


@dataclass(frozen=True)
class Guard:
    token: str
    # Host header values accepted ("127.0.0.1:8123"); None accepts any (bound to all
    # interfaces, the name a browser uses cannot be known: the token alone guards then).
    hosts: frozenset | None

    def refusal(self, path: str, headers: dict) -> tuple[int, str] | None:
        """(status, sentence) for a request to refuse, or None to let it through. `headers`
        by lower-case name."""
        first, _, _ = path.lstrip("/").partition("/")
        if not secrets.compare_digest(first.encode(), self.token.encode()):
            return 403, ("This is a rendervisor studio; its address carries a token: open the "
                         "whole address printed when the studio started.")
        host = headers.get("host")
        if host is None or (self.hosts is not None and host.lower() not in self.hosts):
            return 421, (f"The studio does not answer to the host name {host!r}; open it by "
                         "the address printed when it started.")
        origin = headers.get("origin")
        if origin is not None and origin.lower() != f"http://{host.lower()}":
            return 403, (f"Requests from another page ({origin}) are refused; use the studio's "
                         "own page.")
        return None


def hosts_for(host: str, port: int) -> frozenset | None:
    """The Host values a studio bound to `host`:`port` answers to."""
    if host in ("0.0.0.0", "::", ""):
        return None
    shown = f"[{host}]" if ":" in host else host
    return frozenset(f"{name}:{port}".lower() for name in {shown, *LOOPBACK_NAMES})


# Added to every answer.
HEADERS = [(b"content-security-policy",
            b"default-src 'self'; img-src 'self' blob: data:; frame-ancestors 'none'; "
            b"base-uri 'none'; form-action 'none'"),
           (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"),
           (b"x-frame-options", b"DENY")]


class Guarded:
    """ASGI middleware: every HTTP request passes `guard.refusal` or is answered with it."""

    def __init__(self, app, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_guarded(message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        headers = {name.decode("latin-1").lower(): value.decode("latin-1")
                   for name, value in scope["headers"]}
        refused = self.guard.refusal(scope["path"], headers)
        if refused is not None:
            status, sentence = refused
            await PlainTextResponse(sentence + "\n", status_code=status)(scope, receive,
                                                                          send_guarded)
            return
        await self.app(scope, receive, send_guarded)

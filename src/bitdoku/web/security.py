"""The headers every answer carries so that a browser runs the page's own scripts only, and nobody else's page
can frame it, sniff its JSON as HTML or read it from another origin.

The page is plain files from ``/static`` with no inline script or style, so its policy allows ``'self'`` alone.
The API documentation at ``/docs`` is the one exception: FastAPI's Swagger page loads its script from a CDN and
starts it with one inline ``<script>``; that page gets a policy of its own that allows the CDN and that one
script by its hash (``docs_policy``), never ``'unsafe-inline'``. No CORS header is ever sent: another origin's
page cannot read the answers.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable
from typing import Any

#: The page's policy: its own scripts, styles, images (and the empty ``data:`` icon), requests to its own API.
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

#: Where FastAPI's documentation pages load their scripts, styles and icon from.
DOCS_SOURCES = "https://cdn.jsdelivr.net https://fastapi.tiangolo.com"

HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

_INLINE = {tag: re.compile(rf"<{tag}>(.*?)</{tag}>", re.DOTALL) for tag in ("script", "style")}

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]


def docs_policy(html: str) -> str:
    """The policy of a documentation page: the CDN, and each of its inline scripts and styles by its hash."""

    def allowed(tag: str) -> str:
        hashes = [base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
                  for inline in _INLINE[tag].findall(html)]
        return " ".join(["'self'", DOCS_SOURCES, *(f"'sha256-{digest}'" for digest in hashes)])

    return (f"default-src 'self'; script-src {allowed('script')}; style-src {allowed('style')}; "
            f"img-src 'self' data: {DOCS_SOURCES}; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


class SecurityHeaders:
    """ASGI middleware: add ``HEADERS`` and the page's Content-Security-Policy to every HTTP answer (a route that
    sets a policy of its own keeps it). A plain ASGI wrapper, not Starlette's ``BaseHTTPMiddleware``: it costs one
    header merge per answer, not a task and a stream."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                names = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in HEADERS if name not in names]
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", PAGE_POLICY.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

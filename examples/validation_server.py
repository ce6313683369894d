"""A small HTTP service that checks moves, on the standard library's ``http.server``.

POST ``/check`` with a JSON body ``{"position": {...}, "move": "discard 7H"}`` (the
position as :meth:`Deal.to_dict <biriba.Deal.to_dict>` writes it) and get back
:func:`biriba.check_move`'s verdict as JSON, with status 200 whether the move is legal
or not. A request that is not such a body gets a 4xx status and a JSON error: 400 for
a body that is not JSON, or not an object with a ``position`` and a ``move`` text, 404
for another path, 405 for another method, 411 without a length, 413 for a body over
``MAX_BODY`` bytes.

Run ``python examples/validation_server.py --serve [PORT]`` to serve on 127.0.0.1
(port 8000 by default) until Ctrl-C; without arguments it starts on a free port, sends
itself a few requests, prints the answers and stops.
"""

from __future__ import annotations

import json
import sys
import threading
import urllib.error
import urllib.request
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from biriba import check_move

#: The largest request body read, in bytes: a position is about 2 KB.
MAX_BODY = 64 * 1024
#: The largest body read only to be dropped, before a 413 answer.
_DRAINED = 1024 * 1024


class CheckHandler(BaseHTTPRequestHandler):
    """Answers ``POST /check``; every other request gets a JSON error."""

    server_version = "biriba-check/1"

    def do_POST(self) -> None:
        """Check the move of the request's body against its position."""
        if self.path != "/check":
            self.answer(HTTPStatus.NOT_FOUND, {"error": "POST to /check"})
            return
        length_text = self.headers.get("Content-Length")
        if length_text is None or not length_text.isascii() or not length_text.isdigit():
            self.answer(HTTPStatus.LENGTH_REQUIRED, {"error": "send a Content-Length"})
            return
        length = int(length_text)
        if length > MAX_BODY:
            self.close_connection = True
            if length <= _DRAINED:  # read and drop it, so that the client sees the answer
                for _ in range(0, length, 65536):
                    self.rfile.read(min(65536, length))
                    length -= 65536
            self.answer(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": f"at most {MAX_BODY} bytes"})
            return
        body = self.rfile.read(length)
        try:
            request = json.loads(body)
        except ValueError:
            self.answer(HTTPStatus.BAD_REQUEST, {"error": "the body must be JSON"})
            return
        if (
            not isinstance(request, dict)
            or not isinstance(request.get("position"), dict)
            or not isinstance(request.get("move"), str)
        ):
            self.answer(
                HTTPStatus.BAD_REQUEST,
                {"error": 'send {"position": {...}, "move": "..."}'},
            )
            return
        verdict = check_move(request["position"], request["move"])
        self.answer(HTTPStatus.OK, verdict.to_dict())

    def do_GET(self) -> None:
        """Only POST is served."""
        self.answer(HTTPStatus.METHOD_NOT_ALLOWED, {"error": "POST to /check"})

    do_PUT = do_DELETE = do_PATCH = do_GET

    def answer(self, status: HTTPStatus, data: dict[str, Any]) -> None:
        """Send ``data`` as JSON with ``status``."""
        body = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a real service would log through ``logging``."""


def make_server(host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A server on ``host``:``port`` (0: a free port; ``server.server_port`` says which),
    not yet serving: call ``serve_forever()``, from a thread if need be."""
    return ThreadingHTTPServer((host, port), CheckHandler)


def post(url: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """POST ``body`` to ``url``; return the status and the JSON answer."""
    request = urllib.request.Request(url, data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def demo() -> None:
    """Start on a free port, check a few requests, print the answers, stop."""
    server = make_server()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}/check"
    position = json.loads((Path(__file__).parent / "data" / "position.json").read_text())
    try:
        for move in ["take", "discard 9H", "fold"]:
            body = json.dumps({"position": position, "move": move}).encode()
            show(move, *post(url, body))
        show("(not JSON)", *post(url, b"{nope"))
        show("(no move)", *post(url, json.dumps({"position": position}).encode()))
    finally:
        server.shutdown()
        server.server_close()


def show(request: str, status: int, answer: dict[str, Any]) -> None:
    """Print one request's answer."""
    print(f"{request} -> {status} {json.dumps(answer)}")


def main(argv: list[str]) -> None:
    """``--serve [PORT]`` serves until Ctrl-C; no arguments runs :func:`demo`."""
    if argv[:1] == ["--serve"]:
        port = int(argv[1]) if len(argv) > 1 else 8000
        server = make_server(port=port)
        print(f"checking moves on http://127.0.0.1:{server.server_port}/check (Ctrl-C stops)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
        return
    demo()


if __name__ == "__main__":
    main(sys.argv[1:])

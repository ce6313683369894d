"""The example HTTP validation service (examples/validation_server.py), started on
127.0.0.1 on a free port: good, illegal and malformed requests, and the server still up
after them."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from biriba import check_move

from .helpers import load_module, position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "validation_server.py"
DATA = position(hands={0: "9D 5H 7C 6D 2C"}, melds=(["3D 4D 5D"], []))


def load_example() -> ModuleType:
    return load_module(EXAMPLE, "validation_server")


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[ModuleType, int]]:
    example = load_example()
    running = example.make_server("127.0.0.1", 0)
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    try:
        yield example, running.server_port
    finally:
        running.shutdown()
        running.server_close()
        thread.join(timeout=10)


def request(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        assert response.getheader("Content-Type") == "application/json"
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def check(port: int, move: object, data: object = DATA) -> tuple[int, Any]:
    return request(port, "POST", "/check", json.dumps({"position": data, "move": move}).encode())


def test_good_illegal_and_malformed_requests(server: tuple[ModuleType, int]) -> None:
    example, port = server
    for move in ["discard 9D", "add 0 6D", "discard KS", "meld 5H 7C 9D", "add 0 2D", "fold"]:
        status, answer = check(port, move)
        assert status == 200
        assert answer == check_move(DATA, move).to_dict()
    assert check(port, "discard 9D")[1]["legal"] is True
    assert check(port, "discard KS")[1]["rule"] == "B4.1"
    status, answer = check(port, "draw", {**DATA, "dealer": 7})
    assert status == 200 and answer["error"] == "position" and answer["rule"] == "B1.1"

    malformed: list[tuple[str, str, bytes | None, dict[str, str], int]] = [
        ("POST", "/check", b"{not json", {}, 400),
        ("POST", "/check", b"[1, 2]", {}, 400),
        ("POST", "/check", json.dumps({"position": DATA}).encode(), {}, 400),
        ("POST", "/check", json.dumps({"position": DATA, "move": 3}).encode(), {}, 400),
        ("POST", "/check", json.dumps({"position": "x", "move": "draw"}).encode(), {}, 400),
        ("POST", "/check", b"\xff\xfe\x00", {}, 400),
        ("POST", "/elsewhere", b"{}", {}, 404),
        ("GET", "/check", None, {}, 405),
        ("POST", "/check", b"x" * (example.MAX_BODY + 1), {}, 413),
    ]
    for method, path, body, headers, expected in malformed:
        status, answer = request(port, method, path, body, headers)
        assert status == expected, (method, path, answer)
        assert isinstance(answer["error"], str)

    # Still up, and still right.
    status, answer = check(port, "discard 9D")
    assert status == 200 and answer["legal"] is True


def test_a_request_without_a_length_is_refused(server: tuple[ModuleType, int]) -> None:
    _, port = server
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("POST", "/check")
        connection.endheaders()
        response = connection.getresponse()
        assert response.status == 411
        assert "error" in json.loads(response.read())
    finally:
        connection.close()
    assert check(port, "discard 9D")[0] == 200

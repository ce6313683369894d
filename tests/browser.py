"""A headless Chromium driven over the DevTools protocol, with the standard library only.

The browser talks over a pipe (``--remote-debugging-pipe``: it reads commands from its
file descriptor 3 and writes answers and events to 4, each message JSON ended by a NUL
byte), so no WebSocket client is needed. Used by the replay page's browser test.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from typing import Any

if os.name == "posix":  # the pipes the browser talks over are POSIX file descriptors
    import fcntl

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome", "chromium-headless-shell")


def find_chromium() -> str | None:
    """The path of a Chromium (or Chrome) on this machine, or ``None`` (also where the
    pipes cannot be handed over: not POSIX)."""
    if os.name != "posix":
        return None
    given = os.environ.get("BIRIBA_CHROMIUM")
    if given:
        return shutil.which(given) or (given if os.path.exists(given) else None)
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _high_fd(fd: int) -> int:
    """A copy of ``fd`` numbered 10 or more (so that moving it to 3 or 4 clobbers nothing)."""
    copy = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return copy


class Browser:
    """One headless browser with one page; close it with :meth:`close` (or ``with``)."""

    def __init__(self, executable: str, width: int, height: int) -> None:
        self.profile = tempfile.mkdtemp(prefix="biriba-chromium-")
        to_browser_r, to_browser_w = (_high_fd(fd) for fd in os.pipe())
        from_browser_r, from_browser_w = (_high_fd(fd) for fd in os.pipe())

        def give_pipes() -> None:  # runs in the child, before exec
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--remote-debugging-pipe",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--mute-audio",
                f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=give_pipes,
            pass_fds=(3, 4),
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.writer = to_browser_w
        self.reader = from_browser_r
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )

    # -- the protocol
    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self.reader, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        found: dict[str, Any] = json.loads(message)
        return found

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30) -> Any:
        """Send one command and return its result; events met meanwhile are kept."""
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session is not None:
            message["sessionId"] = self.session
        os.write(self.writer, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            if "method" in answer:
                self.events.append(answer)

    def wait_for(self, event: str, timeout: float = 30) -> dict[str, Any]:
        """Wait for the next event called ``event`` (one already kept counts)."""
        for i, kept in enumerate(self.events):
            if kept["method"] == event:
                return self.events.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            message = self._read_message(deadline)
            if message.get("method") == event:
                return message
            if "method" in message:
                self.events.append(message)

    # -- what a test does
    def open(self, url: str) -> None:
        """Load ``url`` and wait until it has loaded."""
        self.call("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_until(self, expression: str, timeout: float = 30) -> None:
        """Wait until a JavaScript expression is true in the page."""
        deadline = time.monotonic() + timeout
        while not self.evaluate(expression):
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {timeout} s: {expression}")
            time.sleep(0.05)

    def press(self, key: str, code: int) -> None:
        """Press and release one key (``key`` as in KeyboardEvent.key, ``code`` its key code)."""
        for kind in ("keyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent",
                {"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code},
            )

    def screenshot(self) -> bytes:
        """A PNG of the page as shown."""
        return base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])

    def errors(self) -> list[str]:
        """Everything the page reported as an error: exceptions, console errors, log errors."""
        self.call("Runtime.evaluate", {"expression": "0"})  # flush pending events
        found = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(str(params.get("exceptionDetails")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(str(params.get("args")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append(str(params["entry"].get("text")))
        return found

    def requested(self) -> list[str]:
        """The address of every request the page made."""
        return [
            e["params"]["request"]["url"]
            for e in self.events
            if e["method"] == "Network.requestWillBeSent"
        ]

    def close(self) -> None:
        """Stop the browser and remove its profile."""
        try:
            self.session = None
            self.call("Browser.close", timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.writer)
        os.close(self.reader)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def png_pixels(data: bytes) -> tuple[int, int, int, list[bytes]]:
    """The width, height, channels (3: RGB, 4: RGBA) and rows of pixels of an 8-bit PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos = 8
    idat = b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), f"unexpected PNG depth {depth} colour {color}"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                guess = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + guess) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows

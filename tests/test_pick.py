"""Issue 23: the --pick list, driven in a real terminal (tmux send-keys and
capture-pane), with a browser that records the arguments it is given."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from urisift.cli.pick import opener_command, osc52

from .conftest import ROOT

MESSAGE = """\
From: a@example.org
To: b@example.org
Subject: links
Date: Wed, 25 Nov 2026 10:00:00 +0000
MIME-Version: 1.0
Content-Type: text/html; charset=utf-8

<p>Pay <a href="https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fpay.example.com%2Finvoice&amp;data=x">\
your invoice</a>, read <a href="https://docs.example.org/guide">the guide</a>,
do not click <a href="javascript:alert(1)">this</a> or
<a href="http://evil.example/$(touch${IFS}PWNED);id;'q'&amp;x=`id`&amp;y=&quot;z&quot;">this one</a>.</p>
"""
# what the fourth link's target is (backquotes and double quotes percent-encoded, RFC 3986 §2)
EVIL = "http://evil.example/$(touch$%7BIFS%7DPWNED);id;'q'&x=%60id%60&y=%22z%22"


def test_the_opener_gets_the_url_as_one_argument() -> None:
    assert opener_command("http://a/$(x)", {"BROWSER": "firefox --new-tab:lynx"}) == [
        "firefox", "--new-tab", "http://a/$(x)"]
    assert opener_command("http://a/;b", {"BROWSER": "w3m %s -o x"}) == ["w3m", "http://a/;b", "-o", "x"]
    assert opener_command("http://a/", {})[1:] == ["http://a/"]
    assert osc52("http://a/") == "\x1b]52;c;aHR0cDovL2Evx07".replace("x07", "\x07")


needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _wait(condition: Callable[[], bool], what: str, timeout: float = 15, screen: Callable[[], str] | None = None
          ) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}" + (f"; the screen:\n{screen()}" if screen else ""))


@needs_tmux
def test_the_picker_in_a_terminal(tmp_path: Path) -> None:
    pytest.importorskip("urwid")
    (tmp_path / "msg.eml").write_text(MESSAGE)
    opened = tmp_path / "opened"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\nprintf "%s" "$#" > {tmp_path}/argc\nprintf "%s" "$1" > {opened}.part\n'
                       f"mv {opened}.part {opened}\n")
    browser.chmod(0o755)
    session = f"urisift-pick-{os.getpid()}"
    socket = str(tmp_path / "tmux.sock")
    tmux = ["tmux", "-S", socket]
    env = f"cd {tmp_path} && BROWSER={browser} PYTHONPATH={ROOT / 'src'} {sys.executable} -m urisift --pick"
    # the message comes on standard input, as mutt pipes it: keys are read from the terminal
    subprocess.run([*tmux, "new-session", "-d", "-s", session, "-x", "150", "-y", "30",
                    f"{env} < msg.eml; sleep 60"], check=True)

    def screen() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout

    def keys(*names: str) -> None:
        for name in names:  # one at a time, as a person types: each is read before the next comes
            subprocess.run([*tmux, "send-keys", "-t", session, name], check=True)
            time.sleep(0.15)

    try:
        _wait(lambda: "4 links" in screen(), "the list")
        time.sleep(0.5)  # the list is drawn a moment before the terminal is put in raw mode
        lines = [line.strip() for line in screen().splitlines() if line.strip()]
        assert lines[:9] == [
            "urisift: 4 links",
            "1  https://pay.example.com/invoice  [via safelinks]", "your invoice",
            "2  https://docs.example.org/guide", "the guide",
            "3  javascript:alert(1)", "this",
            f"4  {EVIL}  [invalid]", "this one"]
        keys("Down", "Down", "Enter")  # javascript: shown, not opened
        _wait(lambda: "not opened: javascript scheme" in screen(), "the refusal", screen=screen)
        assert not opened.exists()
        keys("Down", "Enter")  # the shell metacharacters reach the browser as they are
        _wait(opened.exists, "the browser")
        assert opened.read_bytes() == EVIL.encode()
        assert (tmp_path / "argc").read_text() == "1"
        assert not (tmp_path / "PWNED").exists()
        opened.unlink()
        keys("/", "g", "u", "i", "d", "e")  # search narrows the list
        _wait(lambda: "1  https://docs.example.org/guide" in screen() and "invoice" not in screen(), "the search")
        keys("Enter", "Enter")
        _wait(opened.exists, "the browser, again")
        assert opened.read_text() == "https://docs.example.org/guide"
        keys("q")
        _wait(lambda: "links" not in screen(), "the picker to end")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)

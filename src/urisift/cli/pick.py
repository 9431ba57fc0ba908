"""``urisift --pick``: the links of one message or page in a terminal list,
to open or copy one, as urlscan and urlview give mutt users::

    macro pager \\cb "<pipe-message> urisift --pick<enter>"

Each entry shows the URL (the unwrapped one where a wrapper was
recovered, with the wrapper named), its flags, and the link's text or the
words around it.  ``/`` searches (the list narrows as you type; Enter keeps
the filter, Esc drops it), Enter opens the link, ``y`` copies it (OSC 52, which
terminals and tmux pass to the system clipboard), ``q`` quits.

Opening runs ``$BROWSER`` (its first ``:``-separated command; ``%s`` there
is replaced by the URL, else the URL is added as the last argument), else
the platform's opener (``xdg-open``, ``open``), with the URL as one
argument and never through a shell: a URL full of ``$(...)``, quotes and
``;`` reaches the browser as it is and runs nothing.  Only schemes the user
allows are opened (``http``, ``https``, ``mailto`` unless ``--pick-schemes``
says otherwise): a ``javascript:`` or ``file:`` link is shown, not opened.

Built on urwid (the TUI library urlscan uses), an optional extra:
``pip install 'urisift[pick]'``.  When the message comes on standard input,
keys are read from the terminal (``/dev/tty``).
"""

from __future__ import annotations

import base64
import os
import shlex
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, Any

from ..model import Record

#: schemes opened unless the user says otherwise
DEFAULT_SCHEMES = frozenset({"http", "https", "mailto"})


@dataclass(frozen=True)
class Link:
    """One entry of the list."""

    url: str
    note: str  # the wrapper, the flags
    words: str  # the link's text, or the text around it

    def matches(self, search: str) -> bool:
        search = search.lower()
        return search in self.url.lower() or search in self.words.lower() or search in self.note.lower()


def links_of(records: Iterable[Record]) -> list[Link]:
    """The entries, in the order the links stand, each URL once."""
    seen: set[str] = set()
    out: list[Link] = []
    for record in records:
        url = record.unwrapped or record.target or record.uri
        if url in seen:
            continue
        seen.add(url)
        notes = []
        if record.wrapper:
            notes.append("via " + " > ".join(record.wrapper))
        notes.extend(r.flag for r in record.risks or ())
        words = " ".join((record.place.text or record.context or "").split())
        out.append(Link(url, ", ".join(notes), words))
    return out


def opener_command(url: str, environ: dict[str, str] | None = None) -> list[str]:
    """The argv that opens ``url``: ``$BROWSER`` (first of its ``:`` list),
    else the platform opener; the URL one element, untouched."""
    environ = dict(os.environ) if environ is None else environ
    browser = (environ.get("BROWSER") or "").split(":")[0].strip()
    if browser:
        argv = shlex.split(browser)
        if any("%s" in a for a in argv):
            return [a.replace("%s", url) for a in argv]
        return [*argv, url]
    return ["open" if sys.platform == "darwin" else "xdg-open", url]


def open_url(url: str, schemes: frozenset[str]) -> str:
    """Open ``url`` if its scheme is allowed; what happened, for the status line."""
    scheme = url.partition(":")[0].lower() if ":" in url else ""
    if scheme not in schemes:
        return f"not opened: {scheme or 'no'} scheme is not in --pick-schemes ({', '.join(sorted(schemes))})"
    try:
        subprocess.Popen(opener_command(url), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,  # noqa: S603
                         stderr=subprocess.DEVNULL, start_new_session=True, shell=False)
    except OSError as exc:
        return f"could not run the opener: {exc}"
    return f"opened {url}"


def osc52(url: str) -> str:
    """The escape sequence that puts ``url`` on the system clipboard (OSC 52)."""
    return "\x1b]52;c;" + base64.b64encode(url.encode("utf-8")).decode("ascii") + "\x07"


def run(links: list[Link], schemes: frozenset[str], tty: IO[str] | None = None) -> int:
    """The list in the terminal until the user quits."""
    import urwid

    if not links:
        sys.stderr.write("urisift: no links to pick from\n")
        return 0
    # the message may have come on standard input (and been read to its end): keys come from the terminal
    piped = sys.stdin is None or sys.stdin.closed or not sys.stdin.isatty()
    terminal_in: Any = open("/dev/tty") if piped else sys.stdin  # noqa: SIM115
    terminal_out: Any = tty or (sys.stdout if sys.stdout.isatty() else open("/dev/tty", "w"))  # noqa: SIM115
    screen = urwid.display.raw.Screen(input=terminal_in, output=terminal_out)
    status = urwid.Text("Enter: open  y: copy  /: search  q: quit")
    search = urwid.Edit("/")
    walker: Any = urwid.SimpleFocusListWalker([])
    shown: list[Link] = []

    def fill(text: str) -> None:
        shown[:] = [link for link in links if link.matches(text)] if text else links
        walker[:] = [urwid.AttrMap(urwid.SelectableIcon(_label(i, link), 0), None, "focus")
                     for i, link in enumerate(shown, 1)]
        if walker:
            walker.set_focus(0)

    fill("")
    body = urwid.ListBox(walker)
    frame: Any = urwid.Frame(body, header=urwid.Text(f"urisift: {len(links)} links"), footer=status)

    def keys(key: Any) -> None:
        if frame.focus_position == "footer":
            if key == "enter":
                frame.focus_position = "body"
                frame.footer = status
            elif key == "esc":
                search.set_edit_text("")
                fill("")
                frame.focus_position = "body"
                frame.footer = status
            return
        if key in ("q", "Q", "esc"):
            raise urwid.ExitMainLoop()
        if key == "/":
            frame.footer = search
            frame.focus_position = "footer"
            return
        if not shown:
            return
        link = shown[body.focus_position]
        if key == "enter":
            status.set_text(open_url(link.url, schemes))
        elif key == "y":
            terminal_out.write(osc52(link.url))
            terminal_out.flush()
            status.set_text(f"copied {link.url}")

    def searched(_: Any, text: str) -> None:
        fill(text)

    urwid.connect_signal(search, "change", searched)
    urwid.MainLoop(frame, [("focus", "standout", "")], screen=screen, unhandled_input=keys).run()
    return 0


def _label(number: int, link: Link) -> str:
    lines = f"{number:3}  {link.url}"
    if link.note:
        lines += f"  [{link.note}]"
    if link.words:
        lines += f"\n     {link.words[:200]}"
    return lines

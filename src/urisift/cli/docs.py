"""Documents made from the command's parser, so that they never
drift from it: the manual page (``urisift --help-man``, roff for ``man -l
-``) and the shell completions (``urisift --completion bash|zsh``).  Built
from argparse's own records of the options (their flags, metavars, choices
and help), with no dependency of their own."""

from __future__ import annotations

import argparse
import re

from .. import __version__

#: metavars whose values are paths: completed with file names
_PATHS = frozenset({"FILE", "PATH", "WARC"})


def option_groups(parser: argparse.ArgumentParser) -> list[tuple[str | None, list[argparse.Action]]]:
    """The parser's option groups, in --help's order: (title, actions) (the documentation site's
    command page is made from them too)."""
    groups = []
    for group in parser._action_groups:
        actions = [a for a in group._group_actions if a.help is not argparse.SUPPRESS]
        if actions:
            groups.append((group.title, actions))
    return groups


def _roff(text: str) -> str:
    """Text as roff reads it: backslashes escaped, no line starting with a control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line for line in text.split("\n"))


def option_value(action: argparse.Action) -> str:
    """An option's value as the synopsis writes it (its metavar, or its choices)."""
    if action.nargs == 0:
        return ""
    if action.choices is not None and action.metavar is None:
        return "{" + ",".join(str(c) for c in action.choices) + "}"
    return str(action.metavar or action.dest.upper())


def manual(parser: argparse.ArgumentParser) -> str:
    """The manual page of the command ``parser`` describes (man(7) macros)."""
    name = parser.prog
    lines = [f'.TH {name.upper()} 1 "" "{name} {__version__}" "User Commands"', ".SH NAME",
             f"{name} \\- find the URI references of text, mail, HTML, web archives and documents, and resolve "
             "them",
             ".SH SYNOPSIS", f".B {name}", "[\\fIOPTIONS\\fR] [\\fIPATH\\fR ...]", ".br",
             f".B {name} audit", "[\\fIOPTIONS\\fR] \\fIWARC\\fR ...", ".SH DESCRIPTION",
             _roff(parser.description or "")]
    for title, actions in option_groups(parser):
        lines.append(f'.SH "{_roff((title or "").upper())}"' if title in ("positional arguments", "options")
                     else f'.SS "{_roff(title or "")}"')
        for action in actions:
            flags = ", ".join(f"\\fB{_roff(flag)}\\fR" for flag in action.option_strings) or \
                f"\\fI{_roff(str(action.metavar or action.dest))}\\fR"
            value = option_value(action) if action.option_strings else ""
            lines += [".TP", flags + (f" \\fI{_roff(value)}\\fR" if value else ""),
                      _roff(" ".join((action.help or "").split()))]
    epilog = parser.epilog or ""
    lines += [".SH EXAMPLES", ".nf", _roff(epilog.rstrip()), ".fi",
              ".SH SEE ALSO", f"{name}\\-spark(1), {name} audit \\-\\-help, and the documentation site built from "
              "the source's docs/ folder (mkdocs serve), whose command page is made from the same parser"]
    return "\n".join(lines) + "\n"


def _flags(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for _, actions in option_groups(parser) for a in actions if a.option_strings]


def _bash(parser: argparse.ArgumentParser) -> str:
    name = parser.prog
    function = "_" + re.sub(r"\W", "_", name)
    cases = []
    for action in _flags(parser):
        if action.nargs == 0:
            continue
        pattern = "|".join(action.option_strings)
        if action.choices is not None:
            words = " ".join(str(c) for c in action.choices)
            cases.append(f'        {pattern}) COMPREPLY=($(compgen -W "{words}" -- "$cur")); return ;;')
        elif str(action.metavar) in _PATHS:
            cases.append(f'        {pattern}) COMPREPLY=($(compgen -f -- "$cur")); return ;;')
        else:
            cases.append(f"        {pattern}) return ;;")  # a value of its own: nothing to offer
    options = " ".join(flag for action in _flags(parser) for flag in action.option_strings)
    return "\n".join([
        f"# bash completion for {name} (urisift --completion bash); source it, or put it in",
        f"# ~/.local/share/bash-completion/completions/{name}",
        f"{function}() {{",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
        '    case "$prev" in',
        *cases,
        "    esac",
        '    if [[ "$cur" == -* ]]; then',
        f'        COMPREPLY=($(compgen -W "{options}" -- "$cur"))',
        "    elif [[ $COMP_CWORD -eq 1 ]]; then",
        '        COMPREPLY=($(compgen -W "audit" -- "$cur") $(compgen -f -- "$cur"))',
        "    else",
        '        COMPREPLY=($(compgen -f -- "$cur"))',
        "    fi",
        "}",
        f"complete -o filenames -F {function} {name}",
    ]) + "\n"


def _zsh_text(text: str) -> str:
    """Help text inside a zsh _arguments spec: brackets, colons and quotes escaped."""
    text = " ".join(text.split())
    return re.sub(r"([\[\]:\\])", r"\\\1", text).replace("'", "'\\''")


def _zsh(parser: argparse.ArgumentParser) -> str:
    name = parser.prog
    specs = []
    for action in _flags(parser):
        summary = _zsh_text((action.help or "").split(";")[0][:100])
        if action.nargs == 0:
            value = ""
        elif action.choices is not None:
            value = f":{action.dest}:({' '.join(str(c) for c in action.choices)})"
        elif str(action.metavar) in _PATHS:
            value = f":{str(action.metavar).lower()}:_files"
        else:
            value = f":{str(action.metavar or action.dest).lower()}: "
        flags = action.option_strings
        if len(flags) == 1:
            specs.append(f"    '{flags[0]}[{summary}]{value}'")
        else:
            exclusive = " ".join(flags)
            specs.append(f"    '({exclusive})'{{{','.join(flags)}}}'[{summary}]{value}'")
    return "\n".join([
        f"#compdef {name}",
        f"# zsh completion for {name} (urisift --completion zsh): put it in a directory of $fpath as _{name}",
        "_arguments -s \\",
        *[spec + " \\" for spec in specs],
        "    '*:path:_files'",
    ]) + "\n"


def completion(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``shell`` (``bash`` or ``zsh``) for the command ``parser`` describes."""
    return _bash(parser) if shell == "bash" else _zsh(parser)


__all__ = ["completion", "manual"]

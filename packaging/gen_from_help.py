#!/usr/bin/env python3
"""Writes graphmend's man page and shell completions from the binary's own --help texts, so that
they can never describe other options than the binary takes.

    gen_from_help.py BINARY man|bash|zsh|fish OUTPUT
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys

OPTION_LINE = re.compile(r"^  (?:-\w, )?(--[a-z][\w-]*)(?: ([A-Z][A-Z_-]*))?(?:\s{2,}(.*))?$")
USAGE_OPTION = re.compile(r"(?<![\w-])(--[a-z][\w-]*)(?: ([A-Z][A-Z_-]*|[a-z]+(?:\|[a-z-]+)+))?")


def help_text(binary: str, *args: str) -> str:
    proc = subprocess.run([binary, *args, "--help"], capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        sys.exit(f"gen_from_help: `{binary} {' '.join(args)} --help` exited {proc.returncode}")
    return proc.stdout


def commands(top_help: str) -> list[str]:
    """The subcommands the top-level usage lists, in its order."""
    seen: list[str] = []
    for match in re.finditer(r"^  graphmend ([a-z]+)", top_help, re.M):
        if match.group(1) not in seen:
            seen.append(match.group(1))
    return seen


def options(sub_help: str) -> list[tuple[str, str, str]]:
    """(option, argument name, description) of one subcommand: the `options:` section where the
    help has one, and every option its usage line names."""
    found: dict[str, tuple[str, str]] = {}
    lines = sub_help.splitlines()
    current = None
    for line in lines:
        match = OPTION_LINE.match(line)
        if match:
            current = match.group(1)
            found[current] = (match.group(2) or "", (match.group(3) or "").strip())
        elif current and line.startswith("    ") and line.strip():
            arg, text = found[current]
            found[current] = (arg, f"{text} {line.strip()}".strip())
        else:
            current = None
    for match in USAGE_OPTION.finditer(sub_help.split("\n\n", 1)[0]):
        name = match.group(1)
        if name not in found:
            found[name] = (match.group(2) or "", "")
    found.setdefault("--help", ("", "this help"))
    return [(name, arg, text) for name, (arg, text) in found.items()]


def roff(text: str) -> str:
    text = text.replace("\\", "\\\\").replace("-", "\\-")
    return "\n".join(("\\&" + line) if line.startswith((".", "'")) else line
                     for line in text.splitlines())


def man_page(binary: str) -> str:
    top = help_text(binary)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True,
                             timeout=30).stdout.split()[-1]
    # The date of the source, not of the build, so that builds are reproducible.
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "0")) or None
    date = (datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc) if epoch
            else datetime.datetime.now(datetime.timezone.utc)).strftime("%Y-%m-%d")
    out = [f'.TH GRAPHMEND 1 "{date}" "graphmend {version}" "User Commands"',
           ".SH NAME", "graphmend \\- predict and mend torch.compile graph breaks",
           ".SH SYNOPSIS", ".nf", roff(top.split("usage:", 1)[1].split("\n\n", 1)[0].strip("\n")),
           ".fi", ".SH DESCRIPTION", roff(top.split("\n\n", 2)[-1].strip())]
    for command in commands(top):
        sub = help_text(binary, command)
        out += [f".SH {command.upper()}", ".nf", roff(sub.split("\n\n", 1)[0]), ".fi"]
        for paragraph in sub.split("\n\n")[1:]:
            if paragraph.startswith("options:"):
                for name, arg, text in options(sub):
                    out += [".TP", f"\\fB{roff(name)}\\fR" + (f" \\fI{arg}\\fR" if arg else ""),
                            roff(text)]
            else:
                out += [".PP", roff(" ".join(paragraph.split()))]
    out += [".SH FILES", "pyproject.toml ([tool.graphmend]); "
            "$XDG_CACHE_HOME/graphmend (the mend cache of graphmend run)",
            ".SH SEE ALSO", "graphmend rule \\-\\-all"]
    return "\n".join(out) + "\n"


def bash(binary: str) -> str:
    top = help_text(binary)
    names = commands(top)
    cases = "\n".join(
        f"    {c}) opts=\"{' '.join(o for o, _, _ in options(help_text(binary, c)))}\" ;;"
        for c in names)
    return f"""# bash completion for graphmend (generated from its --help)
_graphmend() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} command=${{COMP_WORDS[1]}} opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "{' '.join(names)} --help --version" -- "$cur"))
    return
  fi
  case $command in
{cases}
    *) opts="--help" ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -F _graphmend graphmend
"""


def zsh_quote(text: str) -> str:
    return text.replace("'", "'\\''").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:")


def zsh(binary: str) -> str:
    top = help_text(binary)
    names = commands(top)
    functions = []
    for c in names:
        specs = " \\\n    ".join(f"'{o}[{zsh_quote(t[:70])}]'" for o, _, t in options(help_text(binary, c)))
        functions.append(f"_graphmend_{c}() {{\n  _arguments \\\n    {specs} \\\n    '*:file:_files'\n}}")
    return "#compdef graphmend\n# zsh completion for graphmend (generated from its --help)\n" + \
        "\n".join(functions) + f"""
_graphmend() {{
  if (( CURRENT == 2 )); then
    compadd -- {' '.join(names)} --help --version
  else
    local command=$words[2]
    shift words; (( CURRENT-- ))
    (( $+functions[_graphmend_$command] )) && _graphmend_$command
  fi
}}
_graphmend "$@"
"""


def fish(binary: str) -> str:
    top = help_text(binary)
    names = commands(top)
    out = ["# fish completion for graphmend (generated from its --help)",
           f"complete -c graphmend -n __fish_use_subcommand -f -a '{' '.join(names)}'"]
    for c in names:
        for name, arg, text in options(help_text(binary, c)):
            desc = text.replace("'", "\\'")[:80]
            out.append(f"complete -c graphmend -n '__fish_seen_subcommand_from {c}' "
                       f"-l {name[2:]}" + (" -r" if arg else "") + f" -d '{desc}'")
    return "\n".join(out) + "\n"


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[2] not in ("man", "bash", "zsh", "fish"):
        sys.exit(__doc__)
    binary, kind, output = sys.argv[1:]
    text = {"man": man_page, "bash": bash, "zsh": zsh, "fish": fish}[kind](binary)
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()

"""graphmend's mended imports: runs a Python program with installed packages' modules replaced, as
they are imported, by the copies graphmend mended into its cache. The files in site-packages are
never opened for writing. The graphmend binary carries this script and writes it into its cache.

    python mended_imports.py --map MAP [--verbose] -- (SCRIPT | -m MODULE | -c CODE) ARGS...

MAP (written by graphmend) has one line per module file, fields separated by tabs:
    mended ORIGINAL MENDED LINES      LINES is "kept" or "changed" (the mend changed line counts)
    failed ORIGINAL REASON            graphmend could not mend it: it runs unchanged
A mended module is compiled from the mended source under its ORIGINAL file name, so tracebacks
name the installed file; where the mend changed line counts, a note after the traceback says that
the line numbers are those of the mended copy. Its bytecode is not cached, since Python would
write it next to the installed file. The profile helper imports this file and calls install().
Standard library only; any Python 3.8+.
"""

import importlib.abc
import importlib.machinery
import linecache
import os
import sys

_installed = None


class _Table:
    """The map: ORIGINAL (as written and as its real path) -> what to load instead."""

    def __init__(self, path):
        self.mended = {}  # original -> (mended path, lines kept)
        self.failed = {}  # original -> reason
        self.top_names = set()
        with open(path, "r", encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if fields[0] == "mended" and len(fields) == 4:
                    self.mended[fields[1]] = (fields[2], fields[3] == "kept")
                elif fields[0] == "failed" and len(fields) == 3:
                    self.failed[fields[1]] = fields[2]
                elif fields[0] == "package" and len(fields) == 2:
                    self.top_names.add(fields[1])

    def lookup(self, origin):
        for key in (origin, os.path.realpath(origin)):
            if key in self.mended or key in self.failed:
                return key
        return None


class MendedLoader(importlib.abc.Loader):
    """Loads the mended copy of one installed module, under the installed file's name."""

    def __init__(self, original, origin, mended_path, lines_kept, verbose):
        self.original = original
        self.origin = origin
        self.mended_path = mended_path
        self.lines_kept = lines_kept
        self.verbose = verbose

    def create_module(self, spec):
        return None  # the default module, as SourceFileLoader does

    def _source(self):
        with open(self.mended_path, "rb") as f:
            return f.read()

    def get_code(self, fullname):
        try:
            source = self._source()
            code = compile(source, self.origin, "exec", dont_inherit=True)
        except (OSError, SyntaxError, ValueError) as exc:
            # a cache file removed or damaged since graphmend wrote the map: run the original
            sys.stderr.write("graphmend: the mended copy of %s cannot be used (%s); it runs "
                             "unchanged\n" % (self.origin, exc))
            return self.original.get_code(fullname)
        text = source.decode("utf-8", "replace")
        # tracebacks and inspect show the code that runs, not the installed file's lines
        linecache.cache[self.origin] = (len(text), None, text.splitlines(True), self.origin)
        if not self.lines_kept:
            _installed.line_changed[self.origin] = self.mended_path
        return code

    def exec_module(self, module):
        exec(self.get_code(module.__name__), module.__dict__)

    def get_source(self, fullname):
        try:
            return self._source().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return self.original.get_source(fullname)

    def get_filename(self, fullname):
        return self.origin

    def is_package(self, fullname):
        return self.original.is_package(fullname)

    def get_data(self, path):
        return self.original.get_data(path)

    def get_resource_reader(self, fullname):
        reader = getattr(self.original, "get_resource_reader", None)
        return reader(fullname) if reader else None


class MendedFinder(importlib.abc.MetaPathFinder):
    """Finds modules as the path finder does; those of the map get the mended loader."""

    def __init__(self, table, verbose):
        self.table = table
        self.verbose = verbose
        self.line_changed = {}  # original -> mended copy, for modules loaded so far

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] not in self.table.top_names:
            return None  # not a mended package: the other finders, untouched
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or not spec.has_location or not spec.origin:
            return None
        key = self.table.lookup(spec.origin)
        if key is None:
            return None
        if key in self.table.failed:
            if self.verbose:
                sys.stderr.write("graphmend: %s runs unchanged: %s\n" % (
                    spec.origin, self.table.failed[key]))
            return None
        mended_path, lines_kept = self.table.mended[key]
        spec.loader = MendedLoader(spec.loader, spec.origin, mended_path, lines_kept,
                                   self.verbose)
        spec.cached = None
        return spec


def line_notes(exc):
    """Lines that say which files in exc's tracebacks (causes and contexts too) have line
    numbers of a mended copy rather than of the installed file."""
    if _installed is None or not _installed.line_changed:
        return []
    seen, files, pending = set(), [], [exc]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        tb = current.__traceback__
        while tb is not None:
            name = tb.tb_frame.f_code.co_filename
            if name in _installed.line_changed and name not in files:
                files.append(name)
            tb = tb.tb_next
        pending.extend([current.__cause__, current.__context__])
    return ["graphmend: line numbers in %s are of graphmend's mended copy %s (the mend changed "
            "its line count)" % (name, _installed.line_changed[name]) for name in files]


def install(map_path, verbose=False):
    """Puts the mended finder first on sys.meta_path (once) and notes line changes after
    uncaught exceptions' tracebacks."""
    global _installed
    if _installed is not None:
        return _installed
    _installed = MendedFinder(_Table(map_path), verbose)
    sys.meta_path.insert(0, _installed)
    previous_hook = sys.excepthook

    def excepthook(exc_type, exc, tb):
        tb = _without_launcher(tb)
        if isinstance(exc, BaseException):
            exc = exc.with_traceback(tb)  # the default hook prints exc's own traceback
        if previous_hook is sys.__excepthook__:
            # the traceback module reads lines through linecache, which holds the mended source;
            # the interpreter's own printer (before 3.13) reads the installed file
            import traceback

            traceback.print_exception(exc_type, exc, tb)
        else:
            previous_hook(exc_type, exc, tb)
        for line in line_notes(exc):
            sys.stderr.write(line + "\n")

    sys.excepthook = excepthook
    return _installed


def _without_launcher(tb):
    """The traceback from the user's program on: this launcher's and runpy's frames dropped."""
    kept = tb
    while kept is not None and (kept.tb_frame.f_globals is globals() or
                                kept.tb_frame.f_globals.get("__name__") == "runpy"):
        kept = kept.tb_next
    return kept if kept is not None else tb


def _usage(message):
    sys.stderr.write("graphmend run: %s\n" % message)
    sys.exit(2)


def main(argv):
    import runpy

    map_path, verbose = None, False
    while argv and argv[0] != "--":
        if argv[0] == "--map" and len(argv) > 1:
            map_path = argv[1]
            argv = argv[2:]
        elif argv[0] == "--verbose":
            verbose = True
            argv = argv[1:]
        else:
            _usage("launcher: unexpected argument %r" % argv[0])
    if map_path is None or not argv:
        _usage("launcher: usage: mended_imports.py --map MAP [--verbose] -- PROGRAM ARGS...")
    program = argv[1:]
    if not program:
        _usage("no program to run")
    install(map_path, verbose)
    if program[0] == "-m":
        if len(program) < 2:
            _usage("-m needs a module name")
        sys.argv = [program[1]] + program[2:]
        sys.path[0] = os.getcwd()
        runpy.run_module(program[1], run_name="__main__", alter_sys=True)
    elif program[0] == "-c":
        if len(program) < 2:
            _usage("-c needs the code to run")
        import types

        sys.argv = ["-c"] + program[2:]
        sys.path[0] = ""
        module = types.ModuleType("__main__")
        sys.modules["__main__"] = module
        exec(compile(program[1], "<string>", "exec"), module.__dict__)
    else:
        script = program[0]
        if not os.path.exists(script):
            sys.stderr.write("%s: can't open file %r: [Errno 2] No such file or directory\n" % (
                sys.executable, script))
            sys.exit(2)  # what python itself says and returns
        sys.argv = list(program)
        sys.path[0] = os.path.dirname(os.path.realpath(script))
        runpy.run_path(os.path.abspath(script), run_name="__main__")  # as python sets __file__


if __name__ == "__main__":
    main(sys.argv[1:])

"""`python -m graphmend ARGS` runs the graphmend binary with ARGS."""

import os
import subprocess
import sys

from graphmend import find_graphmend_bin


def main() -> None:
    try:
        binary = find_graphmend_bin()
    except FileNotFoundError as error:
        sys.exit(str(error))
    if sys.platform == "win32":
        sys.exit(subprocess.call([binary, *sys.argv[1:]]))
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()

"""Exit statuses of every command: the command-line contract (CONVENTIONS §5)."""

EXIT_OK = 0  # every puzzle read and decided
EXIT_UNSOLVED = 1  # a puzzle had no solution, or the time limit ran out
EXIT_BAD_INPUT = 2  # unreadable or invalid input; nothing was written
EXIT_INTERRUPTED = 130  # stopped by Ctrl-C (SIGINT), as shells report it
EXIT_TERMINATED = 143  # stopped by SIGTERM
EXIT_BROKEN_PIPE = 141  # the reader of the output went away (`| head`), as for SIGPIPE

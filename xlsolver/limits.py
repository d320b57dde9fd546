"""Limits in one place: the largest grid, the default time limit of the teaching commands.

Internal limits that choose a path are counts of work and live with the code that
counts; the only clock is the user's ``--time-limit``.
"""

MAX_SIDE = 300  # grids larger than this on either side are refused (CONVENTIONS §3)
DEFAULT_TIME_LIMIT = 20.0  # seconds: make, check and hints stop here unless told otherwise

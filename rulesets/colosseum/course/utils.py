"""The course's `utils` module: a context manager that silences logging (used by autoplay)."""
import logging
from contextlib import contextmanager


@contextmanager
def all_logging_disabled(highest_level=logging.CRITICAL):
    """Inside the block no log message up to `highest_level` is emitted; the old setting comes back after."""
    previous = logging.root.manager.disable
    logging.disable(highest_level)
    try:
        yield
    finally:
        logging.disable(previous)

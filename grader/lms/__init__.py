"""LMS round trip: class downloads in (`import_submissions`), grades and feedback back out (`export`)."""
from .csvtext import CsvProblem
from .export import (
                     FillResult,
                     Unmatched,
                     fill_canvas_gradebook,
                     fill_moodle_worksheet,
                     write_grades_csv,
)
from .importer import CLASS_CAPS, ImportRefused, ImportReport, import_submissions
from .roster import read_roster

__all__ = [
                     "CLASS_CAPS",
                     "CsvProblem",
                     "FillResult",
                     "ImportRefused",
                     "ImportReport",
                     "Unmatched",
                     "fill_canvas_gradebook",
                     "fill_moodle_worksheet",
                     "import_submissions",
                     "read_roster",
                     "write_grades_csv",
]

"""The manager: config, submissions, validation, matches, league, standings, grades, reports."""
__version__ = "0.1.0"

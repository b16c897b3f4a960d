"""The course's `agents` package, as the grader provides it.

The course's own __init__ imported random_agent, human_agent and student_agent; here the grader
imports the student's file itself, so this package only offers `agents.agent` and lets the
student's helper modules be imported as `agents.<helper>`.
"""

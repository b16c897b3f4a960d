"""The course's `agents` package, as the grader provides it.

The course's package imported its sample agents, which register themselves as "random_agent",
"random_agent_2" and "human_agent". Here they load when first named (`agents.RandomAgent`,
`from agents import *`, `import agents.random_agent`), so a student's agent that registers one of
those names itself still loads. The grader imports the student's file as `agents.student_agent`;
other `agents.<name>` imports find the student's helper files next to it first.
"""
__all__ = ["RandomAgent", "HumanAgent"]


def __getattr__(name):
    if name == "RandomAgent":
        from .random_agent import RandomAgent  # here: loaded when first named (see above)
        return RandomAgent
    if name == "HumanAgent":
        from .human_agent import HumanAgent  # here: loaded when first named (see above)
        return HumanAgent
    raise AttributeError(f"module 'agents' has no attribute {name!r}")

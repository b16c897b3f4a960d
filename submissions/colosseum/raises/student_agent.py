"""Example submission whose step() raises: the grader plays a random walk for it every turn."""
from agents.agent import Agent
from store import register_agent


@register_agent("student_agent")
class StudentAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "CrashingAgent"
        self.autoplay = True

    def step(self, chess_board, my_pos, adv_pos, max_step):
        raise RuntimeError("this agent is not written yet")

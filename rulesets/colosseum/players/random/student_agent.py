"""The course's random agent as a submission: a random walk of 0..max_step steps, then a wall on a
random free side (agents/random_agent.py of the course's environment, which the grader offers).

Written against the student API exactly as a student would (agents.agent.Agent, store.register_agent).
"""
from agents.random_agent import RandomAgent
from store import register_agent


@register_agent("student_agent")
class StudentAgent(RandomAgent):
    def step(self, chess_board, my_pos, adv_pos, max_step):
        return super().step(chess_board, my_pos, adv_pos, max_step)

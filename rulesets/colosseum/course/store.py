"""The course's `store` module: the registry that `@register_agent("name")` fills."""

AGENT_REGISTRY = {}


def register_agent(agent_name=""):
    """Class decorator: record the class under `agent_name`; a name used twice is an error."""

    def decorator(cls):
        if agent_name in AGENT_REGISTRY:
            raise AssertionError(f"Agent {AGENT_REGISTRY[agent_name]} is already registered.")
        AGENT_REGISTRY[agent_name] = cls
        return cls

    return decorator

package grader_shim;

import java.util.Map;

/** What a ruleset's Java bridge implements: open the student's classes, then answer RPCs. */
public interface Handler {
    /** Load the submission (cwd is its folder); an exception fails the start with its message. */
    void open(Map<String, Object> options) throws Exception;

    /** One RPC with its JSON arguments; the result must be JSON data (Json.write). */
    Object call(String method, Map<String, Object> args) throws Exception;
}

"""`grader serve`: the upload service (BRUTE's experience on the grader's own code path).

Students upload and see the same verdict `grader check` prints within seconds; instructors see
everyone, rejudge, run the league and export grades. Modules: `db` (records and the job queue),
`accounts` (roster, set-password links, Argon2), `uploads` (durable storage, penalties, rate limit),
`worker` (evaluation processes), `app` (the Starlette pages), `context` (what the app and the
workers share), `supervisor` (`serve()`: the web server, and the workers kept alive).
"""

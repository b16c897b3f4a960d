# The commands a user types. Everything sets itself up in .venv/ on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test test-all bench soak serve clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet -e '.[dev]'
	# the courses' own packages (Colosseum W2022: NumPy 1.x), built once; without network, on first use
	-$(BIN)/python -m grader.course_env
	touch $(STAMP)

install: $(STAMP)

## demo: check a bundled submission and run every assignment's league; ends with the next steps
# (PYTHONWARNINGS above: setuptools' "Editable installation" notice is not ours and reads like a failure)
demo: $(STAMP)
	$(BIN)/python -m grader.demo

## test: the fast suite, everything but the slow end-to-end tests (tests/suite_split.py); minutes
test: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

## test-all: every test, the end-to-end ones too; what CI runs (.ci/run), about an hour
test-all: $(STAMP)
	$(BIN)/python -m pytest -q

## soak: several graders at once for 60 minutes, honest players only (issue 33); figures for docs/BENCHMARKS.md
# (CI runs the 5-minute form: GRADER_SOAK_MINUTES=5 .venv/bin/python -m pytest -q tests/scale/test_soak.py)
soak: $(STAMP)
	$(BIN)/python -m benchmarks.soak --minutes $${SOAK_MINUTES:-60}

## serve: the upload service on http://127.0.0.1:8000/ (prints the demo instructor's password once)
serve: $(STAMP)
	$(BIN)/grader serve

## bench: sandbox, harness and league figures, printed as a table
bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) reports/*/ .grader/ .pytest_cache

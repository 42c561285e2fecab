# Ludothèque: `make run` sets everything up and starts the bot; `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench backup clean i18n-extract i18n-update i18n-compile

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	touch $(STAMP)

.env:
	cp .env.example .env
	@echo "Created .env from .env.example: put your bot token in it (see README)."

run: $(STAMP) .env
	$(BIN)/python -m bot

# A backup of the SQLite database now, while the bot runs or not (README, Backups).
backup: $(STAMP)
	$(BIN)/python -m bot.backups

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n auto --dist worksteal --cov=bot --cov-branch --cov-report=term:skip-covered --cov-fail-under=90

# Translations (docs/translating.md): extract the marked strings, merge them into both
# catalogues (English is filled from the source), and compile them (the bot also compiles
# them in memory at start, so compiling is only for tools that want .mo files).
POT := i18n/locales/ludotheque.pot
i18n-extract: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg --no-location --sort-output \
		--msgid-bugs-address="" --project=Ludothèque -o $(POT) .

i18n-update: i18n-extract
	$(BIN)/pybabel -q update --no-fuzzy-matching --ignore-obsolete -i $(POT) \
		-d i18n/locales -D ludotheque
	$(BIN)/python -m i18n.english

i18n-compile: $(STAMP)
	$(BIN)/pybabel -q compile --statistics -d i18n/locales -D ludotheque

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache

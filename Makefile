# mcpgen: `make` installs, verifies pins, checks generated/ and builds; `make test` runs the suite.
SHELL := /bin/bash
.DEFAULT_GOAL := all

# A sibling checkout of the shared spec mirror is used when MCP_SPEC_MIRROR is not set.
ifeq ($(origin MCP_SPEC_MIRROR), undefined)
  ifneq ($(wildcard ../shared/spec/SOURCES.md),)
    export MCP_SPEC_MIRROR := $(abspath ../shared/spec)
  endif
endif

TSX := node_modules/.bin/tsx
TSC := node_modules/.bin/tsc
VITEST := node_modules/.bin/vitest

.PHONY: all install system-deps generate check build typecheck test demo examples docs clean

all: install system-deps check build

node_modules/.install-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

# chromium and redis-server, which the browser and Redis suites run, installed when missing.
system-deps:
	bash scripts/system-deps.sh

generate: install
	$(TSX) codegen/cli.ts generate

check: install
	$(TSX) codegen/cli.ts generate --check
	$(TSX) scripts/sync-docs.ts --check

# tsc emits the declarations (and the modules they describe); the package ships the entries
# bundled from them into dist/esm (scripts/bundle-dist.ts says why).
build: install
	rm -rf dist
	$(TSC) -p tsconfig.build.json
	$(TSX) scripts/bundle-dist.ts

typecheck: install
	$(TSC) -p tsconfig.json

# The examples and the conformance run come after the unit tests, never alongside them: some
# scenarios check timing. SKIP_EXAMPLES=1 / SKIP_CONFORMANCE=1 leave them out (CI runs each as
# a stage of its own).
test: install typecheck
	$(VITEST) run
ifneq ($(SKIP_EXAMPLES),1)
	$(MAKE) examples
endif
ifneq ($(SKIP_CONFORMANCE),1)
	$(MAKE) conformance
endif

# Every story in examples/ over each transport it supports; each client checks what it gets.
examples: install
	$(TSX) examples/run.ts

# The quickstart server and client of the README.
demo: install
	$(TSX) examples/run.ts quickstart

# Refills the code blocks of README.md and docs/*.md from the example files (`make check` fails on drift).
docs: install
	$(TSX) scripts/sync-docs.ts

clean:
	rm -rf dist .cache

# The package as users install it (npm pack into a scratch project, bundles for browsers and
# Workers) and the other runtimes (workerd, Bun, Deno, headless Chromium); part of `make test`.
.PHONY: test-package
test-package: install
	$(VITEST) run test/package test/runtimes

# The MCP conformance suite (@modelcontextprotocol/conformance) against the everything server and
# the conformance client, plus an MCP Inspector CLI smoke test; see conformance/run.ts. The suite
# and the Inspector run on a Node 22 that the runner installs into .cache/node22 from npm.
.PHONY: conformance
conformance: install
	$(TSX) conformance/run.ts

# Benchmarks (not part of `make test`; see bench/README.md). `bench` is the full run, whose
# results go to bench/results/; `bench-quick` is the smoke run CI uses (no footprint scenario,
# reuses dist/ when it is newer than the sources). Both compile the harness with esbuild into
# bench/.out and install its one extra package (@modelcontextprotocol/node) into bench/node_modules.
ESBUILD := node_modules/.bin/esbuild
BENCH_PREPARE = \
	{ test bench/node_modules/.package-lock.json -nt bench/package-lock.json || npm ci --prefix bench --no-audit --no-fund --loglevel=error; } && \
	rm -rf bench/.out && \
	$(ESBUILD) $$(find bench/main.ts bench/lib bench/impl bench/http bench/workers -name '*.ts') \
	  --outdir=bench/.out --outbase=bench --format=esm --platform=node --target=node20 --log-level=warning

.PHONY: bench bench-quick

bench: install build
	$(BENCH_PREPARE)
	node bench/.out/main.js

bench-quick: install
	@if [ ! -f dist/esm/runtime/index.js ] || [ -n "$$(find runtime generated scripts/bundle-dist.ts -name '*.ts' -newer dist/esm/runtime/index.js | head -1)" ]; then $(MAKE) build; fi
	$(BENCH_PREPARE)
	node bench/.out/main.js --quick

# Maintainer commands for protocol revisions (see docs/spec-revisions.md); they run the codegen
# CLI and are not part of the published package.
#   make spec-diff FROM=2025-11-25 TO=2026-07-28 [JSON=1]
#   make spec-add REVISION=<YYYY-MM-DD|draft> URL=<schema.json url> [SHA256=…] [ERA=stateful|stateless] [STATUS=released|draft]
#   make spec-update REVISION=draft URL=<schema.json url> [SHA256=…] [ERA=…] [FORCE=1 REASON="why a released pin moves"]
# Values reach the command through the environment, so quotes in REASON need no escaping.
.PHONY: spec-diff spec-add spec-update
export FROM TO REVISION URL SHA256 ERA STATUS REASON

spec-diff: install
	@[ -n "$$FROM" ] && [ -n "$$TO" ] || { echo 'usage: make spec-diff FROM=<revision> TO=<revision> [JSON=1]' >&2; exit 2; }
	$(TSX) codegen/cli.ts spec diff "$$FROM" "$$TO" $(if $(JSON),--json)

spec-add: install
	@[ -n "$$REVISION" ] && [ -n "$$URL" ] || { echo 'usage: make spec-add REVISION=<YYYY-MM-DD|draft> URL=<url> [SHA256=<hash>] [ERA=stateful|stateless] [STATUS=released|draft]' >&2; exit 2; }
	$(TSX) codegen/cli.ts spec add "$$REVISION" --url "$$URL" $${SHA256:+--sha256 "$$SHA256"} $${ERA:+--era "$$ERA"} $${STATUS:+--status "$$STATUS"}

spec-update: install
	@[ -n "$$REVISION" ] && [ -n "$$URL" ] || { echo 'usage: make spec-update REVISION=<revision> URL=<url> [SHA256=<hash>] [ERA=stateful|stateless] [FORCE=1 REASON="…"]' >&2; exit 2; }
	$(TSX) codegen/cli.ts spec update "$$REVISION" --url "$$URL" $${SHA256:+--sha256 "$$SHA256"} $${ERA:+--era "$$ERA"} $(if $(FORCE),--force) $${REASON:+--reason "$$REASON"}

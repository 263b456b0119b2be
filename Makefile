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

.PHONY: all install generate check build typecheck test demo clean

all: install check build

node_modules/.install-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

generate: install
	$(TSX) codegen/main.ts generate

check: install
	$(TSX) codegen/main.ts generate --check

build: install
	rm -rf dist
	$(TSC) -p tsconfig.build.json

typecheck: install
	$(TSC) -p tsconfig.json

test: install typecheck
	$(VITEST) run

demo: install
	$(TSX) examples/demo-client.ts

clean:
	rm -rf dist .cache

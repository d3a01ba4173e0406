# Meridian. `make demo` renders the world map; `make test` runs every test.
# Every target that compiles first runs `make deps`, which installs missing Debian packages.
SWIFT      ?= swift
BUILD_DIR  := .build
RELEASE    := $(BUILD_DIR)/release/meridian
DEMO_OUT   ?= demo-output
# The binary with the Swift runtime linked in, built apart from the usual release build.
STATIC_DIR := $(BUILD_DIR)/static
STATIC     := $(STATIC_DIR)/release/meridian
PREFIX     ?= /usr/local
# `make fuzz` runs each libFuzzer target this long; `make test` runs each a few seconds.
FUZZ_SECONDS      ?= 60
FUZZ_TEST_SECONDS ?= 5

.PHONY: deps build release static install test-static test lint format demo bench bench-large fuzz test-slurm test-container golden-update clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product meridian

# Standard library and Foundation linked in: runs where the Swift toolchain is not installed.
static: deps
	$(SWIFT) build -c release --static-swift-stdlib --product meridian --scratch-path $(STATIC_DIR)

# `make install PREFIX=/usr/local` (DESTDIR honoured): the static binary as PREFIX/bin/meridian.
install: static
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(STATIC) $(DESTDIR)$(PREFIX)/bin/meridian

# The static binary run with the toolchain out of reach (see scripts/test-static.sh).
test-static: static
	@bash scripts/test-static.sh $(STATIC)

test: deps lint
	$(SWIFT) build --build-tests
	bash scripts/test.sh $(FUZZ_TEST_SECONDS)

# The toolchain's own formatter, configured by .swift-format; `make format` rewrites in place.
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Fuzz Package.swift

format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Fuzz Package.swift

demo: release
	@bash scripts/demo.sh $(RELEASE) $(DEMO_OUT)

# libFuzzer targets for the JSON parser, map documents, GeoJSON and PNG (Fuzz/, scripts/fuzz.sh):
# each runs FUZZ_SECONDS; a crash, hang or out-of-memory fails with the input in .build/fuzz/crashes.
fuzz: deps
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

# The static binary, as installed: dynamic linking of the Swift runtime is no part of the work.
bench: deps static
	@bash scripts/bench.sh $(STATIC)

# Real data at real scale beside Mapnik: GSHHG full resolution and 300,000 labelled points
# (scripts/bench-large.sh; the dataset is made once into .build/bench-large).
bench-large: deps release
	@bash scripts/bench-large.sh $(RELEASE)

# Shards on a real one-node Slurm cluster (slurm-wlm and munge, started and stopped by the script).
test-slurm: deps release
	@bash scripts/test-slurm.sh $(RELEASE)

# The container recipe (deploy/) with podman: the image built from deploy/Containerfile, the
# Kubernetes Jobs' own scripts run in it, the merged shards checked against the unsharded job.
test-container: deps release
	@bash scripts/test-container.sh $(RELEASE)

# Rewrites the expected images after an intended change, then lays every image it changed out
# in one contact sheet (expected | new | difference) under .build/golden-review: look at it
# before committing. Goldens that still match are left alone; ALL=1 rewrites every golden
# whose pixels changed at all.
golden-update: deps
	rm -rf $(BUILD_DIR)/golden-review
	MERIDIAN_GOLDEN_UPDATE=$(if $(ALL),all,1) $(SWIFT) test --filter Golden
	$(SWIFT) run golden-review

clean:
	rm -rf $(BUILD_DIR) $(DEMO_OUT)
